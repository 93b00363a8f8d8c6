package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs real agents under the real sandbox (bwrap, root cgroups). Each hostile agent is stopped with its outcome,
 * and nothing of the run is left behind: no cgroup, no file in the work root, no process.
 */
class BubblewrapExecutorTest {

    private static final Limits SMALL = new Limits(64 * Limits.MIB, 50, 32, Duration.ofSeconds(10), 64 * 1024,
            16 * 1024, 4 * Limits.MIB);
    private static final List<String> CONTROLLERS = List.of("memory", "cpu", "pids", "freezer", "cpuacct");

    @TempDir
    static Path shared;
    private static BubblewrapExecutor executor;
    private static Path workRoot;

    @TempDir
    Path bundle;
    private final String token = "atrium" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @BeforeAll
    static void startExecutor() {
        if (!Files.isExecutable(Path.of(BubblewrapExecutor.BWRAP))) {
            fail("bubblewrap is not installed at /usr/bin/bwrap: run scripts/services (it installs bubblewrap and "
                    + "strace) before the sandbox's tests");
        }
        workRoot = shared.resolve("work");
        executor = BubblewrapExecutor.create(workRoot);
        assertThat(executor.capabilities().namespaces()).as(executor.capabilities().problems().toString()).isTrue();
        assertThat(executor.capabilities().canRunUntrusted()).as(executor.capabilities().problems().toString())
                .isTrue();
    }

    @AfterEach
    void nothingLeftBehind() throws IOException {
        assertNothingLeftBehind(workRoot, token);
    }

    /** No file in the work root, no cgroup of this JVM, no process with the token; the thread not interrupted. */
    static void assertNothingLeftBehind(Path workRoot, String token) throws IOException {
        assertThat(Thread.interrupted()).as("the test thread was left interrupted").isFalse();
        try (Stream<Path> files = Files.list(workRoot)) {
            assertThat(files.toList()).as("files left in the work root").isEmpty();
        }
        String prefix = "run-" + ProcessHandle.current().pid() + "-";
        for (String controller : CONTROLLERS) {
            Path parent = Path.of("/sys/fs/cgroup", controller, Cgroups.PARENT);
            if (Files.isDirectory(parent)) {
                try (Stream<Path> groups = Files.list(parent)) {
                    assertThat(groups.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                            .filter(n -> n.startsWith(prefix)).toList()).as("cgroups left").isEmpty();
                }
            }
        }
        assertThat(processesWith(token)).as("processes left").isEmpty();
    }

    @Test
    void whenPythonAgentReadsJsonThenItAnswersJson() throws IOException {
        write("main.py", """
                import json, sys
                request = json.load(sys.stdin)
                print(json.dumps({"output": {"echo": request["input"]["text"].upper()}, "usage": {"tokens": 3}}))
                """);
        RunResult run = run(spec(List.of("/usr/bin/python3", "main.py"), "{\"input\":{\"text\":\"hello\"}}",
                SMALL));
        assertThat(run.outcome()).as(run.stderrText()).isEqualTo(Outcome.EXITED);
        assertThat(run.exitCode()).isZero();
        assertThat(run.stdoutText()).contains("\"echo\": \"HELLO\"").contains("\"tokens\": 3");
        assertThat(run.peakMemoryBytes()).isPositive();
        assertThat(run.cpuTime()).isPositive();
    }

    /**
     * The CPU quota is the cgroup's: a busy loop of two seconds held to 20 % of one CPU uses about 0.4 s of CPU,
     * as the group's own accounting counts it. Only the ratio is asserted (a shared machine can give the loop less
     * than its quota, never more), with 10 points of tolerance either way.
     */
    @Test
    void whenBusyLoopUnderTwentyPercentQuotaThenCpuTimeOverWallTimeIsAboutTwentyPercent() throws IOException {
        write("spin.py", """
                import time
                end = time.monotonic() + 2.0
                n = 0
                while time.monotonic() < end:
                    n += 1
                print('{"output": {"loops": %d}}' % n)
                """);
        Limits twenty = new Limits(64 * Limits.MIB, 20, 32, Duration.ofSeconds(10), 64 * 1024, 16 * 1024,
                4 * Limits.MIB);
        RunResult run = run(spec(List.of("/usr/bin/python3", "spin.py", token), "", twenty));
        assertThat(run.succeeded()).as(run.detail() + run.stderrText()).isTrue();
        double ratio = (double) run.cpuTime().toNanos() / run.wallTime().toNanos();
        System.out.printf("CPU quota 20 %%: %d ms CPU over %d ms wall = %.1f %%%n", run.cpuTime().toMillis(),
                run.wallTime().toMillis(), ratio * 100);
        assertThat(ratio).as("CPU time over wall time").isBetween(0.10, 0.30);
    }

    @Test
    void whenShellAgentReadsStdinThenItAnswersOnStdout() throws IOException {
        write("agent.sh", """
                read -r line
                printf '{"output":{"got":%s}}\\n' "$line"
                echo "a log line" >&2
                exit 0
                """);
        RunResult run = run(spec(List.of("/bin/sh", "agent.sh"), "{\"n\":1}", SMALL));
        assertThat(run.succeeded()).as(run.stderrText()).isTrue();
        assertThat(run.stdoutText().trim()).isEqualTo("{\"output\":{\"got\":{\"n\":1}}}");
        assertThat(run.stderrText()).contains("a log line");
    }

    @Test
    void whenAgentExitsNonZeroThenExitedWithItsCode() throws IOException {
        RunResult run = run(spec(List.of("/bin/sh", "-c", "exit 3"), "", SMALL));
        assertThat(run.outcome()).isEqualTo(Outcome.EXITED);
        assertThat(run.exitCode()).isEqualTo(3);
    }

    @Test
    void whenMemoryPastTheLimitThenMemoryLimit() throws IOException {
        write("hog.py", """
                chunks = []
                while True:
                    chunks.append(bytearray(8 * 1024 * 1024))
                """);
        RunResult run = run(spec(List.of("/usr/bin/python3", "hog.py", token), "", SMALL));
        assertThat(run.outcome()).as(run.detail() + run.stderrText()).isEqualTo(Outcome.MEMORY_LIMIT);
        assertThat(run.peakMemoryBytes()).isGreaterThan(32 * Limits.MIB).isLessThanOrEqualTo(SMALL.memoryBytes());
    }

    @Test
    void whenForkingPastTheProcessLimitThenForksFailAndTheRunEnds() throws IOException {
        write("forks.py", """
                import os, sys, time
                made = 0
                try:
                    while made < 10000:
                        if os.fork() == 0:
                            time.sleep(30)
                            os._exit(0)
                        made += 1
                except OSError as e:
                    pass
                print(made)
                """);
        RunResult run = run(spec(List.of("/usr/bin/python3", "forks.py", token), "", SMALL));
        assertThat(run.outcome()).as(run.stderrText()).isEqualTo(Outcome.EXITED);
        assertThat(Integer.parseInt(run.stdoutText().trim())).isLessThan(SMALL.maxProcesses() + 5);
        assertThat(run.wallTime()).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void whenShellForkBombThenItIsContainedUntilTheTimeout() throws IOException {
        Limits limits = SMALL.withTimeout(Duration.ofSeconds(3));
        RunResult run = run(spec(List.of("/bin/sh", "-c", "b() { b | b & }; b; sleep 60 # " + token), "", limits));
        // the failing forks fill stderr (OUTPUT_LIMIT) or the bomb runs into the timeout: either way it is stopped
        assertThat(run.outcome()).isIn(Outcome.TIMED_OUT, Outcome.OUTPUT_LIMIT, Outcome.EXITED, Outcome.KILLED);
        assertThat(run.wallTime()).isLessThan(Duration.ofSeconds(8));
        // the machine is fine: the next run works
        assertThat(run(spec(List.of("/bin/true"), "", SMALL)).succeeded()).isTrue();
    }

    @Test
    void whenConnectingWithoutNetworkThenItFailsAndTheAuditListsIt() throws IOException {
        write("net.py", """
                import socket
                s = socket.socket()
                s.settimeout(2)
                try:
                    s.connect(("93.184.216.34", 443))
                    print("connected")
                except OSError as e:
                    print("refused", e.errno)
                import os
                # the audit file lives in the host's work root, which nothing inside can reach
                print("tmp", os.listdir("/tmp"), os.path.exists("/run"))
                """);
        RunResult run = run(new RunSpec(bundle, List.of("/usr/bin/python3", "net.py"), new byte[0], Map.of(), SMALL,
                Network.NONE, false, true, true));
        assertThat(run.stdoutText()).contains("tmp [] False");
        assertThat(run.stdoutText()).as(run.detail() + " " + run.stderrText() + run.networkAttempts()).startsWith("refused");
        assertThat(run.networkAttempts()).anySatisfy(a -> assertThat(a).startsWith("connect(")
                .contains("93.184.216.34").contains("htons(443)"));
        assertThat(run.networkAttempts()).noneMatch(a -> a.contains("AF_NETLINK"));
    }

    /**
     * Network without a domain list ("any host") is any public address: the run still has its own empty namespace,
     * and neither a socket nor its proxy reaches a server of the host, on loopback or on an interface address.
     */
    @Test
    void whenNetworkIsAnyHostThenTheHostIsReachedNeitherDirectlyNorThroughTheProxy() throws Exception {
        var accepted = java.util.Collections.synchronizedList(new ArrayList<String>());
        try (var server = new java.net.ServerSocket(0)) {
            Thread accept = new Thread(() -> {
                while (!server.isClosed()) {
                    try (var socket = server.accept()) {
                        accepted.add(String.valueOf(socket.getRemoteSocketAddress()));
                        socket.getOutputStream().write("pong\n".getBytes(StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            accept.setDaemon(true);
            accept.start();
            List<String> hosts = new ArrayList<>(List.of("127.0.0.1", "localhost", "[::1]"));
            for (var nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
                for (var a : java.util.Collections.list(nic.getInetAddresses())) {
                    if (a instanceof java.net.Inet4Address && !a.isLoopbackAddress()) {
                        hosts.add(a.getHostAddress());
                    }
                }
            }
            write("client.py", """
                    import os, socket, sys
                    port = int(sys.argv[1])
                    print("proxy", os.environ.get("HTTPS_PROXY"))
                    for host in sys.argv[2:]:
                        try:
                            socket.create_connection((host.strip("[]"), port), timeout=3)
                            print(host, "direct connected")
                        except OSError as e:
                            print(host, "direct failed")
                        t = socket.create_connection(("127.0.0.1", 3128), timeout=5)
                        t.sendall(("CONNECT %s:%d HTTP/1.1\\r\\n\\r\\n" % (host, port)).encode())
                        print(host, t.recv(100).decode().split("\\r\\n")[0])
                    """);
            var command = new ArrayList<>(List.of("/usr/bin/python3", "client.py", "" + server.getLocalPort()));
            command.addAll(hosts);
            RunResult run = run(new RunSpec(bundle, command, new byte[0], Map.of(), SMALL, Network.to(List.of()),
                    false, false, true));
            var expected = new StringBuilder("proxy http://127.0.0.1:3128\n");
            for (String host : hosts) {
                expected.append(host).append(" direct failed\n").append(host).append(" HTTP/1.1 403 Forbidden\n");
            }
            assertThat(run.stdoutText()).as(run.stderrText()).isEqualTo(expected.toString());
            assertThat(run.networkAttempts()).allMatch(a -> a.contains("denied"));
            assertThat(accepted).isEmpty();
        }
    }

    /** Whatever the trust (untrusted or not) and the network, bwrap gets an empty network namespace of its own. */
    @Test
    void whenAnyTrustAndNetworkThenTheRunNeverSharesTheHostsNetworkNamespace() {
        var networks = List.of(Network.NONE, Network.to(List.of()), Network.to(List.of("api.example.com")),
                Network.NONE.withGateway(8080), Network.to(List.of()).withGateway(8080),
                Network.to(List.of("*.example.com")).withGateway(8080), new Network(false, List.of("example.com")));
        Path egress = bundle.resolve("egress");
        for (boolean untrusted : List.of(true, false)) {
            for (Network network : networks) {
                for (boolean scratch : List.of(true, false)) {
                    var spec = new RunSpec(bundle, List.of("/bin/true"), new byte[0], Map.of(), SMALL, network,
                            scratch, false, untrusted);
                    boolean proxied = BubblewrapExecutor.proxied(spec);
                    assertThat(proxied).isEqualTo(network.allowed() || network.gateway());
                    List<String> options = executor.bwrapOptions(spec, proxied ? egress : null);
                    assertThat(options).as(network + " untrusted=" + untrusted).contains("--unshare-net")
                            .doesNotContain("--share-net", "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf");
                    if (proxied) {
                        assertThat(String.join(" ", options)).contains("HTTPS_PROXY http://127.0.0.1:3128");
                        assertThatThrownBy(() -> executor.bwrapOptions(spec, null))
                                .isInstanceOf(IllegalArgumentException.class);
                    }
                }
            }
        }
    }

    @Test
    void whenTheNetworkIsLimitedToDomainsThenOnlyThoseAreReachedThroughTheProxy(@TempDir Path elsewhere)
            throws Exception {
        try (var server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread accept = new Thread(() -> {
                while (!server.isClosed()) {
                    try (var socket = server.accept()) {
                        var in = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                                StandardCharsets.ISO_8859_1));
                        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                            // the request head is not looked at
                        }
                        socket.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\npong"
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            accept.setDaemon(true);
            accept.start();
            write("fetch.py", """
                    import socket, sys, urllib.request
                    port = sys.argv[1]
                    for host in ("localhost", "127.0.0.1"):
                        try:
                            body = urllib.request.urlopen("http://%s:%s/" % (host, port), timeout=5).read().decode()
                            print(host, body)
                        except Exception as e:
                            print(host, "refused", getattr(e, "code", e))
                    try:
                        socket.create_connection(("127.0.0.1", int(port)), timeout=3)
                        print("direct connected")
                    except OSError:
                        print("direct failed")
                    # what an HTTPS client does: a CONNECT tunnel, then its own bytes through it
                    tunnel = socket.create_connection(("127.0.0.1", 3128), timeout=5)
                    tunnel.sendall(("CONNECT localhost:%s HTTP/1.1\\r\\n\\r\\n" % port).encode())
                    answer = tunnel.recv(100).decode().split("\\r\\n")[0]
                    tunnel.sendall(b"GET / HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n")
                    reply = b""
                    while True:
                        data = tunnel.recv(100)
                        if not data:
                            break
                        reply += data
                    print(answer, reply.decode().split("\\r\\n\\r\\n")[-1])
                    """);
            var spec = new RunSpec(bundle, List.of("/usr/bin/python3", "fetch.py", "" + server.getLocalPort()),
                    new byte[0], Map.of(), SMALL, Network.to(List.of("localhost")), false, false, true);
            // the test's server listens on loopback, which the proxy refuses unless told otherwise
            var inward = BubblewrapExecutor.create(elsewhere.resolve("work"), Path.of("/sys/fs/cgroup"),
                    AddressPolicy.exempting(java.util.Set.copyOf(List.of(java.net.InetAddress.getAllByName(
                            "localhost")))));
            assertThat(inward.capabilities().domainFiltering()).isTrue();
            RunResult allowed = inward.run(spec);
            assertThat(allowed.stdoutText()).as(allowed.outcome() + " " + allowed.detail() + " " + allowed.stderrText())
                    .isEqualTo("localhost pong\n127.0.0.1 refused 403\ndirect failed\n"
                            + "HTTP/1.1 200 Connection established pong\n");
            assertThat(allowed.networkAttempts()).anyMatch(a -> a.startsWith("proxy GET localhost:") && a.contains(
                    "allowed")).anyMatch(a -> a.startsWith("proxy GET 127.0.0.1:") && a.endsWith("denied: not a listed domain"));
            RunResult inwardRefused = run(spec);
            assertThat(inwardRefused.stdoutText()).as(inwardRefused.stderrText())
                    .isEqualTo("localhost refused 403\n127.0.0.1 refused 403\ndirect failed\n"
                            + "HTTP/1.1 403 Forbidden \n");
            assertThat(inwardRefused.networkAttempts()).anyMatch(a -> a.startsWith("proxy GET localhost:")
                    && a.endsWith("denied: 127.0.0.1 is loopback"));
        }
        try (Stream<Path> egress = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(egress.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(EgressProxy.DIR_PREFIX + "run-" + ProcessHandle.current().pid() + "-"))
                    .toList()).as("egress directories left").isEmpty();
        }
    }

    @Test
    void whenTheRunMayCallTheGatewayThenOnlyItsInvokePathIsReachedAndNothingElseOfTheHost() throws Exception {
        var received = java.util.Collections.synchronizedList(new ArrayList<String>());
        var gateway = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        gateway.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var h = exchange.getRequestHeaders();
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " auth="
                    + h.getFirst("Authorization") + " xff=" + h.getFirst("X-Forwarded-For") + " evil="
                    + h.getFirst("X-Evil") + " body=" + new String(body, StandardCharsets.UTF_8));
            byte[] answer = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        gateway.start();
        try {
            int port = gateway.getAddress().getPort();
            write("call.py", """
                    import json, os, socket, sys, urllib.request
                    port = int(sys.argv[1])
                    base = "http://gateway.atrium.internal"
                    def post(path, method="POST", headers=None):
                        request = urllib.request.Request(base + path, data=b'{"text":"hi"}' if method == "POST" else None,
                                                         method=method, headers=headers or {})
                        request.add_header("Authorization", "Bearer atd_x")
                        try:
                            return str(urllib.request.urlopen(request, timeout=5).status)
                        except Exception as e:
                            return str(getattr(e, "code", "failed"))
                    def raw(text):
                        s = socket.create_connection(("127.0.0.1", 3128), timeout=5)
                        s.sendall(text.encode())
                        answer = s.recv(200).decode().split("\\r\\n")[0]
                        s.close()
                        return answer
                    print("invoke", post("/v1/agents/echo-b/invoke", headers={"X-Forwarded-For": "1.2.3.4",
                                                                             "X-Evil": "yes"}))
                    print("pinned", post("/v1/agents/echo-b/invoke?version=2"))
                    print("get", post("/v1/agents/echo-b/invoke", method="GET"))
                    print("admin", post("/admin/users"))
                    print("traversal", post("/v1/agents/../../admin/invoke"))
                    print("other query", post("/v1/agents/echo-b/invoke?x=1"))
                    print("connect", raw("CONNECT gateway.atrium.internal:80 HTTP/1.1\\r\\n\\r\\n"))
                    print("chunked", raw("POST http://gateway.atrium.internal/v1/agents/b/invoke HTTP/1.1\\r\\n"
                                         "Transfer-Encoding: chunked\\r\\n\\r\\n0\\r\\n\\r\\n"))
                    print("too large", raw("POST http://gateway.atrium.internal/v1/agents/b/invoke HTTP/1.1\\r\\n"
                                           "Content-Length: 9999999\\r\\n\\r\\n"))
                    try:
                        urllib.request.urlopen("http://localhost:%d/v1/agents/b/invoke" % port, timeout=5)
                        print("localhost reached")
                    except Exception as e:
                        print("localhost", getattr(e, "code", "failed"))
                    try:
                        socket.create_connection(("127.0.0.1", port), timeout=3)
                        print("direct connected")
                    except OSError:
                        print("direct failed")
                    """);
            var spec = new RunSpec(bundle, List.of("/usr/bin/python3", "call.py", "" + port), new byte[0], Map.of(),
                    SMALL, Network.NONE.withGateway(port), false, false, true);

            RunResult run = run(spec);

            assertThat(run.stdoutText()).as(run.outcome() + " " + run.detail() + " " + run.stderrText())
                    .isEqualTo("invoke 200\npinned 200\nget 403\nadmin 403\ntraversal 403\nother query 403\n"
                            + "connect HTTP/1.1 403 Forbidden\nchunked HTTP/1.1 411 Length Required\n"
                            + "too large HTTP/1.1 413 Content Too Large\nlocalhost 403\ndirect failed\n");
            assertThat(received).containsExactly(
                    "POST /v1/agents/echo-b/invoke auth=Bearer atd_x xff=null evil=null body={\"text\":\"hi\"}",
                    "POST /v1/agents/echo-b/invoke?version=2 auth=Bearer atd_x xff=null evil=null body={\"text\":\"hi\"}");
            assertThat(run.networkAttempts()).contains("gateway POST /v1/agents/echo-b/invoke")
                    .anyMatch(a -> a.startsWith("gateway GET") && a.endsWith("denied"));
        } finally {
            gateway.stop(0);
        }
    }

    @Test
    void whenWritingOutsideScratchThenEveryPlaceIsReadOnlyOrAbsent() throws IOException {
        write("w.sh", """
                for f in /agent/x /usr/x /x /etc/x /proc/sys/kernel/core_pattern /home/x /scratch/x; do
                  if (echo hi > "$f") 2>/dev/null; then echo "WROTE $f"; else echo "denied $f"; fi
                done
                """);
        RunResult run = run(spec(List.of("/bin/sh", "w.sh"), "", SMALL));
        assertThat(run.stdoutText()).as(run.stderrText()).doesNotContain("WROTE").contains("denied /agent/x")
                .contains("denied /x").contains("denied /usr/x").contains("denied /scratch/x");
        assertThat(bundle.resolve("x")).doesNotExist();
    }

    @Test
    void whenScratchIsGrantedThenItIsWritableAndBounded() throws IOException {
        write("s.sh", """
                echo hi > "$SCRATCH/note" && cat "$SCRATCH/note"
                echo tmp > /tmp/t && cat /tmp/t
                head -c 8388608 /dev/zero > "$SCRATCH/big" 2>/dev/null || echo "scratch full"
                """);
        RunResult run = run(new RunSpec(bundle, List.of("/bin/sh", "s.sh"), new byte[0], Map.of(), SMALL,
                Network.NONE, true, false, true));
        assertThat(run.stdoutText()).as(run.stderrText()).isEqualTo("hi\ntmp\nscratch full\n");
    }

    @Test
    void whenReadingHostFilesThenTheyAreAbsent() throws IOException {
        write("r.sh", """
                for f in /etc/shadow /root /work /home /var /proc/1/environ /etc/hostname /sys/fs/cgroup; do
                  if [ -e "$f" ]; then echo "SEEN $f"; cat "$f" 2>/dev/null | head -c 200; else echo "absent $f"; fi
                done
                cat /etc/passwd
                """);
        RunResult run = run(spec(List.of("/bin/sh", "r.sh"), "", SMALL));
        String out = run.stdoutText();
        assertThat(out).as(run.stderrText()).contains("absent /etc/shadow", "absent /root", "absent /work",
                "absent /home", "absent /var", "absent /sys/fs/cgroup");
        // /proc is the sandbox's own: its pid 1 is bwrap's init, whose environment is empty of the host's
        assertThat(out).doesNotContain("JAVA_HOME").doesNotContain("MAVEN");
        assertThat(out).contains("nobody:x:65534").doesNotContain("root:");
    }

    @Test
    void whenAnAgentReadsEveryProcessThenNoHostPathOrEnvironmentShows() throws IOException {
        write("p.sh", """
                for p in /proc/[0-9]*; do
                  tr '\\0' ' ' < "$p/cmdline" 2>/dev/null; echo
                  tr '\\0' ' ' < "$p/environ" 2>/dev/null; echo
                done
                """);
        RunResult run = run(spec(List.of("/bin/sh", "p.sh"), "", SMALL));
        String out = run.stdoutText();
        assertThat(out).as(run.stderrText()).contains("/usr/bin/bwrap --args 5");
        assertThat(out).doesNotContain(bundle.toString()).doesNotContain(workRoot.toString())
                .doesNotContain("PWD=/work").doesNotContain("ATRIUM_");
    }

    @Test
    void whenSleepingPastTheTimeoutThenTimedOutAndTheTreeKilled() throws IOException {
        Limits limits = SMALL.withTimeout(Duration.ofSeconds(2));
        RunResult run = run(spec(List.of("/bin/sh", "-c", "sleep 300 & sleep 300; : " + token), "", limits));
        assertThat(run.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(run.detail()).isEqualTo("timed out after 2 s");
        assertThat(run.wallTime()).isLessThan(Duration.ofSeconds(6));
    }

    @Test
    void whenFloodingStdoutThenOutputLimitWithBoundedMemory() throws IOException {
        long before = usedHeap();
        RunResult run = run(spec(List.of("/bin/sh", "-c", "head -c 104857600 /dev/zero; : " + token), "", SMALL));
        assertThat(run.outcome()).isEqualTo(Outcome.OUTPUT_LIMIT);
        assertThat(run.stdout()).hasSize((int) SMALL.maxStdoutBytes());
        assertThat(run.stdoutTruncated()).isTrue();
        assertThat(usedHeap() - before).isLessThan(32 * Limits.MIB);
    }

    @Test
    void whenAChildOutlivesItsParentThenItIsGoneAfterTheRun() throws IOException {
        write("orphan.sh", "setsid sleep 300 " + token.length() + " & echo started\n");
        RunResult run = run(spec(List.of("/bin/sh", "orphan.sh", token), "", SMALL));
        assertThat(run.succeeded()).as(run.stderrText()).isTrue();
        assertThat(run.stdoutText()).isEqualTo("started\n");
        assertThat(processesWith("sleep\0" + "300\0" + token.length())).isEmpty();
    }

    /** bwrap itself sets PWD to the working directory it changed to; nothing else of the host gets through. */
    @Test
    void whenEnvironmentIsDeclaredThenOnlyItIsSeen() throws IOException {
        RunResult run = run(new RunSpec(bundle, List.of("/usr/bin/env"), new byte[0], Map.of("API_MODE", "test"),
                SMALL, Network.NONE, false, false, true));
        assertThat(run.stdoutText().lines().sorted().toList()).as(run.stderrText())
                .containsExactly("API_MODE=test", "HOME=/tmp", "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin",
                        "PWD=/agent");
    }

    @Test
    void whenRunsAreConcurrentThenEachGetsItsOwnGroup() throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<RunResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            int n = i;
            Thread t = new Thread(() -> results.add(executor.run(spec(List.of("/bin/sh", "-c", "echo " + n), "",
                    SMALL))));
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(results).hasSize(4).allMatch(RunResult::succeeded);
    }

    @Test
    void whenTheRunningThreadIsInterruptedThenTheTreeIsKilledAndCleanedUp() throws Exception {
        var result = new java.util.concurrent.atomic.AtomicReference<RunResult>();
        var interruptedAfter = new java.util.concurrent.atomic.AtomicBoolean();
        Thread t = new Thread(() -> {
            result.set(executor.run(spec(List.of("/bin/sh", "-c", "sleep 300; : " + token), "", SMALL)));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        Thread.sleep(500);
        t.interrupt();
        t.join(10_000);
        assertThat(result.get().outcome()).isEqualTo(Outcome.KILLED);
        assertThat(interruptedAfter).isTrue();
    }

    @Test
    void whenThereIsNoPidsControllerThenRlimitNprocHoldsTheForks(@TempDir Path elsewhere) throws IOException {
        // a cgroup root offering memory, cpu and freezer but no pids controller
        Path root = Files.createDirectories(elsewhere.resolve("cgroup"));
        for (String controller : List.of("memory", "cpu", "freezer")) {
            Files.createSymbolicLink(root.resolve(controller), Path.of("/sys/fs/cgroup", controller));
        }
        var noPids = BubblewrapExecutor.create(elsewhere.resolve("work"), root);
        assertThat(noPids.capabilities().processLimit()).isTrue();
        assertThat(noPids.capabilities().canRunUntrusted()).as(noPids.capabilities().problems().toString()).isTrue();
        write("forks.py", """
                import os, time
                made = 0
                try:
                    while made < 10000:
                        if os.fork() == 0:
                            time.sleep(30)
                            os._exit(0)
                        made += 1
                except OSError:
                    pass
                print(made)
                """);
        RunResult run = noPids.run(spec(List.of("/usr/bin/python3", "forks.py", token), "", SMALL));
        assertThat(run.outcome()).as(run.stderrText()).isEqualTo(Outcome.EXITED);
        assertThat(Integer.parseInt(run.stdoutText().trim())).isPositive().isLessThan(SMALL.maxProcesses());
        for (String controller : List.of("memory", "cpu", "freezer")) {
            Files.delete(root.resolve(controller));
        }
    }

    @Test
    void whenACrashedProcessLeftARunBehindThenTheNextExecutorSweepsIt(@TempDir Path elsewhere) throws Exception {
        long dead = deadPid();
        String name = "run-" + dead + "-1-1";
        Path memory = Path.of("/sys/fs/cgroup/memory", Cgroups.PARENT, name);
        Files.createDirectories(memory);
        Path work = Files.createDirectories(elsewhere.resolve("work"));
        Files.createDirectories(work.resolve(name).resolve("inside"));
        Path egress = Files.createTempDirectory(EgressProxy.DIR_PREFIX + name + "-");
        Process orphan = new ProcessBuilder("/bin/sh", "-c", "echo $$ > " + memory.resolve("cgroup.procs")
                + "; exec sleep 300 " + token.length()).start();
        try {
            for (int i = 0; i < 100 && Files.readString(memory.resolve("cgroup.procs")).isBlank(); i++) {
                Thread.sleep(10);
            }
            BubblewrapExecutor.create(work);
            assertThat(memory).doesNotExist();
            assertThat(work.resolve(name)).doesNotExist();
            assertThat(egress).doesNotExist();
            assertThat(orphan.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        } finally {
            orphan.destroyForcibly();
        }
    }

    private static long deadPid() {
        for (long pid = 4_000_000; ; pid--) {
            if (ProcessHandle.of(pid).isEmpty()) {
                return pid;
            }
        }
    }

    /**
     * This machine's cgroup v2 hierarchy (mounted beside the v1 controllers) offers none of memory, cpu and pids: the
     * v2 path detects that and refuses untrusted runs, and still runs a trusted one in a v2 group whose whole tree it
     * kills with cgroup.kill at the timeout.
     */
    @Test
    void whenCgroupV2LacksTheControllersThenUntrustedIsRefusedAndTheTreeIsStillKilled(@TempDir Path elsewhere)
            throws IOException {
        Path unified = Path.of("/sys/fs/cgroup/unified");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(unified.resolve("cgroup.kill"))
                || Files.isRegularFile(unified.resolve("cgroup.controllers")), "no cgroup v2 hierarchy here");
        var v2 = BubblewrapExecutor.create(elsewhere.resolve("work"), unified);
        assertThat(v2.capabilities().cgroupVersion()).isEqualTo("v2");
        assertThat(v2.capabilities().canRunUntrusted()).isFalse();
        assertThat(v2.capabilities().problems()).anyMatch(p -> p.contains("v2 memory controller"));
        assertThatThrownBy(() -> v2.run(spec(List.of("/bin/true"), "", SMALL))).isInstanceOf(SandboxRefused.class);
        var trusted = new RunSpec(bundle, List.of("/bin/sh", "-c", "sleep 300 & sleep 300; : " + token), new byte[0],
                Map.of(), SMALL.withTimeout(Duration.ofSeconds(1)), Network.NONE, false, false, false);
        RunResult run = v2.run(trusted);
        assertThat(run.outcome()).isEqualTo(Outcome.TIMED_OUT);
        try (Stream<Path> groups = Files.list(unified.resolve(Cgroups.PARENT))) {
            assertThat(groups.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("run-" + ProcessHandle.current().pid() + "-")).toList()).isEmpty();
        }
    }

    @Test
    void whenLimitsCannotBeAppliedThenAnUntrustedRunIsRefused(@TempDir Path elsewhere) throws IOException {
        Path unwritable = elsewhere.resolve("cgroup");
        Files.createDirectories(unwritable);
        Files.setPosixFilePermissions(unwritable, PosixFilePermissions.fromString("r-xr-xr-x"));
        var limited = BubblewrapExecutor.create(elsewhere.resolve("work"), unwritable);
        assertThat(limited.capabilities().canRunUntrusted()).isFalse();
        assertThat(limited.capabilities().memoryLimit()).isFalse();
        assertThat(limited.capabilities().problems()).anyMatch(p -> p.contains("memory"));
        assertThatThrownBy(() -> limited.run(spec(List.of("/bin/true"), "", SMALL)))
                .isInstanceOf(SandboxRefused.class).hasMessageContaining("never run without limits");
        // a trusted run (no card involved) still works, namespaces only
        var trusted = new RunSpec(bundle, List.of("/bin/true"), new byte[0], Map.of(), SMALL, Network.NONE, false,
                false, false);
        assertThat(limited.run(trusted).succeeded()).isTrue();
    }

    private RunSpec spec(List<String> command, String stdin, Limits limits) {
        return RunSpec.of(bundle, command, stdin.getBytes(StandardCharsets.UTF_8), limits);
    }

    private RunResult run(RunSpec spec) {
        return executor.run(spec);
    }

    private void write(String name, String text) throws IOException {
        Path file = bundle.resolve(name);
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static long usedHeap() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    /** Pids whose command line contains the text (NUL separates arguments). */
    static List<Long> processesWith(String text) {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                    if (cmdline.contains(text) && Long.parseLong(p.getFileName().toString())
                            != ProcessHandle.current().pid()) {
                        pids.add(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException ignored) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return pids;
    }
}
