package dev.atrium.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs an agent under bubblewrap with cgroup limits. The process tree of one run:
 * <pre>
 *   /bin/sh (root: joins the run's cgroups, opens the generated passwd/group)
 *     └ exec [strace -f -e trace=network, when audited]
 *         └ setpriv --reuid 65534 (nobody outside as well as inside: no host root behind the user namespace)
 *             └ bwrap (user, pid, ipc, uts, cgroup, mount and network namespaces, at every trust level)
 *                 └ the agent, as uid/gid 65534, no capabilities, no new privileges
 * </pre>
 * Every process of the run, however it detaches itself, stays in the run's cgroups, so it is killed with the whole
 * group on timeout, on an output overflow and after the main process exits; the groups and the run's files are
 * removed on every path. Stale groups and files of a crashed earlier process are swept at creation. A run never
 * shares the host's network namespace: granted network (a domain list, or any public address) and the invoke gateway
 * are reached only through the run's {@link EgressProxy}.
 */
public final class BubblewrapExecutor implements Executor {

    static final String BWRAP = "/usr/bin/bwrap";
    static final String SETPRIV = "/usr/bin/setpriv";
    static final String STRACE = "/usr/bin/strace";
    static final String PRLIMIT = "/usr/bin/prlimit";
    /** The egress relay inside a run granted network is a Python script. */
    static final String PYTHON3 = "/usr/bin/python3";
    /**
     * The programs this executor runs from the machine, each checked by {@link #capabilities()}: a machine (or the
     * Docker image, docker/Dockerfile) that lacks one refuses untrusted agents or runs them with less.
     */
    public static final List<String> TOOLS = List.of(BWRAP, SETPRIV, STRACE, PRLIMIT, PYTHON3);
    static final int SANDBOX_ID = 65534;
    private static final int MAX_NETWORK_ATTEMPTS = 100;
    /** run-&lt;pid&gt;-&lt;its start time in clock ticks since boot&gt;-&lt;n&gt;: the owner, told apart from a reused pid. */
    private static final Pattern RUN_NAME = Pattern.compile("run-(\\d+)-(\\d+)-\\d+");
    /** The names of the first version, owned by wall-clock start times: swept only once their pid is gone. */
    private static final Pattern OLD_RUN_NAME = Pattern.compile("r-(\\d+)-\\d+-\\d+");
    private static final Pattern PROBE_NAME = Pattern.compile("probe-(\\d+)-\\d+");
    private static final Pattern NETWORK_CALL = Pattern.compile(
            "^(?:\\[pid\\s+)?\\d+\\]?\\s+((?:connect|sendto|sendmsg|sendmmsg|bind)\\(.*)$");
    /**
     * Joins the cgroups before anything else runs, then hands the generated passwd/group over as fds 3 and 4 and
     * bwrap's own options as fd 5, so that no host path shows in the sandbox's {@code /proc/1/cmdline}.
     */
    private static final String LAUNCHER = """
            for f in $ATRIUM_CGROUP_PROCS; do
              echo $$ > "$f" || { echo "atrium-sandbox: cannot join the cgroup $f" >&2; exit 125; }
            done
            options=$ATRIUM_BWRAP_OPTIONS
            unset ATRIUM_CGROUP_PROCS ATRIUM_BWRAP_OPTIONS
            exec "$@" 3<<'PASSWD' 4<<'GROUP' 5<"$options"
            nobody:x:65534:65534:nobody:/tmp:/usr/sbin/nologin
            PASSWD
            nobody:x:65534:
            GROUP
            """;

    private final Path workRoot;
    private final Cgroups cgroups;
    private final SandboxCapabilities capabilities;
    private final String owner;
    /** Shared by every executor of this JVM, so two of them never name a run alike. */
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private final List<String> hostMounts;

    private final AddressPolicy egressPolicy;

    private BubblewrapExecutor(Path workRoot, Cgroups cgroups, AddressPolicy egressPolicy) {
        this.workRoot = workRoot;
        this.cgroups = cgroups;
        this.egressPolicy = egressPolicy;
        ProcessHandle self = ProcessHandle.current();
        this.owner = "run-" + self.pid() + "-" + startTicks(self.pid()) + "-";
        this.hostMounts = hostMounts();
        sweep();
        this.capabilities = detect();
    }

    /** An executor keeping its per-run files under {@code workRoot}, with the cgroups under /sys/fs/cgroup. */
    public static BubblewrapExecutor create(Path workRoot) {
        return create(workRoot, Path.of("/sys/fs/cgroup"));
    }

    /** As {@link #create(Path)}, with the cgroup hierarchy looked for under {@code cgroupRoot} (tests point it away). */
    public static BubblewrapExecutor create(Path workRoot, Path cgroupRoot) {
        return create(workRoot, cgroupRoot, AddressPolicy.strict());
    }

    /** Tests only: an egress policy that lets the proxy reach a test server on loopback. */
    static BubblewrapExecutor create(Path workRoot, Path cgroupRoot, AddressPolicy egressPolicy) {
        try {
            Files.createDirectories(workRoot);
            Files.setPosixFilePermissions(workRoot, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare the sandbox work directory " + workRoot, e);
        }
        return new BubblewrapExecutor(workRoot, Cgroups.detect(cgroupRoot), egressPolicy);
    }

    @Override
    public SandboxCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public RunResult run(RunSpec spec) {
        if (!capabilities.namespaces()) {
            throw new SandboxRefused("The sandbox cannot start here: " + String.join("; ", capabilities.problems()));
        }
        if (spec.untrusted() && !capabilities.canRunUntrusted()) {
            throw new SandboxRefused("An untrusted agent is never run without limits, and this machine cannot apply "
                    + "them: " + String.join("; ", capabilities.problems()));
        }
        if (spec.auditNetwork() && !capabilities.networkAudit()) {
            throw new SandboxRefused("The network audit was asked for, but strace is not available");
        }
        if (spec.rootFileSystem() && proxied(spec)) {
            // the egress relay is the host's Python, which an image's root does not have
            throw new SandboxRefused("An agent shipped as an image cannot be given network here yet");
        }
        if (spec.rootFileSystem() && spec.untrusted() && !cgroups.pids()) {
            // without a pids controller the process count is held by the host's prlimit, absent from an image's root
            throw new SandboxRefused("An untrusted image agent needs the cgroup pids controller, which this machine "
                    + "lacks");
        }
        checkBundle(spec.bundleDir());
        if (Thread.currentThread().isInterrupted()) {
            // as a blocking call would: an interrupted caller gets no run at all
            return new RunResult(Outcome.KILLED, -1, new byte[0], new byte[0], false, false, Duration.ZERO, 0,
                    List.of(), "The calling thread was interrupted before the run started");
        }
        return execute(spec, cgroups.any());
    }

    private RunResult execute(RunSpec spec, boolean limited) {
        String id = owner + SEQUENCE.incrementAndGet();
        Path runDir = workRoot.resolve(id);
        long started = System.nanoTime();
        Cgroups.Group group = null;
        EgressProxy proxy = null;
        Process process = null;
        List<Thread> threads = new ArrayList<>();
        boolean restoreInterrupt = false;
        try {
            Files.createDirectory(runDir);
            if (limited) {
                group = cgroups.create(id, spec.limits());
            }
            Path audit = runDir.resolve("network.audit");
            if (proxied(spec)) {
                proxy = EgressProxy.start(id, spec.network(), egressPolicy);
            }
            Path options = runDir.resolve("bwrap.options");
            Files.write(options, nulSeparated(bwrapOptions(spec, proxy == null ? null : proxy.dir())));
            var builder = new ProcessBuilder(command(spec, audit, proxy != null));
            // the launcher starts in / with an empty environment: nothing of the server's shows inside
            builder.directory(new java.io.File("/"));
            builder.environment().clear();
            builder.environment().put("ATRIUM_BWRAP_OPTIONS", options.toString());
            if (group != null) {
                builder.environment().put("ATRIUM_CGROUP_PROCS", String.join(" ",
                        group.procsFiles().stream().map(Path::toString).toList()));
            }
            process = builder.start();
            Process running = process;
            Cgroups.Group runGroup = group;
            var overflow = new AtomicBoolean();
            Runnable killOnOverflow = () -> {
                if (overflow.compareAndSet(false, true)) {
                    kill(running, runGroup);
                }
            };
            var out = new Pump(process.getInputStream(), spec.limits().maxStdoutBytes(), killOnOverflow);
            var err = new Pump(process.getErrorStream(), spec.limits().maxStderrBytes(), killOnOverflow);
            threads.add(start("sandbox-stdout-" + id, out));
            threads.add(start("sandbox-stderr-" + id, err));
            threads.add(start("sandbox-stdin-" + id, () -> feed(running.getOutputStream(), spec.stdin())));

            boolean timedOut = false;
            boolean interrupted = false;
            try {
                timedOut = !process.waitFor(spec.limits().timeout().toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            // whatever is left (a child that outlived its parent, a timed-out tree) goes now
            kill(process, group);
            if (!waitQuietly(process, 5_000)) {
                process.toHandle().destroyForcibly();
            }
            for (Thread t : threads) {
                joinQuietly(t, 2_000);
            }
            Duration wall = Duration.ofNanos(System.nanoTime() - started);
            int exit = process.isAlive() ? -1 : process.exitValue();
            if (exit == 125 && err.text().startsWith("atrium-sandbox: cannot join")) {
                throw new SandboxRefused(err.text().trim());
            }
            boolean oom = group != null && group.oomKilled();
            long peak = group == null ? 0 : group.peakMemory();
            Duration cpuTime = group == null ? Duration.ZERO : group.cpuTime();
            List<String> attempts = new ArrayList<>(spec.auditNetwork() ? networkAttempts(audit) : List.of());
            if (proxy != null) {
                attempts.addAll(proxy.log());
            }
            Outcome outcome;
            String detail;
            if (interrupted) {
                outcome = Outcome.KILLED;
                detail = "The run was interrupted and its process tree killed";
            } else if (overflow.get()) {
                outcome = Outcome.OUTPUT_LIMIT;
                detail = (out.truncated() ? "stdout passed " + spec.limits().maxStdoutBytes()
                        : "stderr passed " + spec.limits().maxStderrBytes()) + " bytes; the run was killed";
            } else if (timedOut) {
                outcome = Outcome.TIMED_OUT;
                detail = "timed out after " + spec.limits().timeout().toSeconds() + " s";
            } else if (oom) {
                outcome = Outcome.MEMORY_LIMIT;
                detail = "The memory limit of " + spec.limits().memoryBytes() / Limits.MIB + " MB was reached";
            } else if (exit > 128 && exit < 128 + 65) {
                outcome = Outcome.KILLED;
                detail = "Killed by signal " + (exit - 128);
            } else {
                outcome = Outcome.EXITED;
                detail = "Exited with " + exit;
            }
            int exitCode = outcome == Outcome.EXITED ? exit : -1;
            restoreInterrupt = interrupted;
            return new RunResult(outcome, exitCode, out.bytes(), err.bytes(), out.truncated(), err.truncated(),
                    wall, peak, cpuTime, attempts, detail);
        } catch (IOException e) {
            throw new SandboxRefused("The sandbox could not start: " + e.getMessage(), e);
        } finally {
            // the cleanup's file writes go through interruptible channels: run it with the flag cleared, then restore
            restoreInterrupt |= Thread.interrupted();
            try {
                if (process != null && process.isAlive()) {
                    kill(process, group);
                }
                if (group != null) {
                    group.close();
                }
                if (proxy != null) {
                    proxy.close();
                }
                for (Thread t : threads) {
                    t.interrupt();
                }
                deleteTree(runDir);
            } finally {
                if (restoreInterrupt || Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Network granted, or the invoke gateway to reach: the run goes out only through the egress proxy. */
    static boolean proxied(RunSpec spec) {
        return spec.network().allowed() || spec.network().gateway();
    }

    /** The launcher, the optional audit, the drop to nobody and bwrap (its options on fd 5), then the command. */
    List<String> command(RunSpec spec, Path audit, boolean egress) {
        List<String> c = new ArrayList<>(List.of("/bin/sh", "-c", LAUNCHER, "atrium-sandbox"));
        if (spec.auditNetwork()) {
            // strace runs outside the sandbox and writes where the agent cannot reach
            c.addAll(List.of(STRACE, "-f", "-qq", "--seccomp-bpf", "-e", "trace=network", "-o", audit.toString()));
        }
        c.addAll(List.of(SETPRIV, "--reuid=" + SANDBOX_ID, "--regid=" + SANDBOX_ID, "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--"));
        c.addAll(List.of(BWRAP, "--args", "5", "--"));
        if (egress) {
            c.addAll(List.of("/bin/sh", "-c", EgressProxy.WRAPPER, "agent"));
        }
        if (!cgroups.pids() && !spec.rootFileSystem()) {
            // no pids controller: the process count is held by RLIMIT_NPROC, counted inside the fresh user namespace
            c.addAll(List.of(PRLIMIT, "--nproc=" + spec.limits().maxProcesses()));
        }
        c.addAll(spec.command());
        return c;
    }

    private static byte[] nulSeparated(List<String> args) {
        var out = new java.io.ByteArrayOutputStream();
        for (String a : args) {
            out.writeBytes(a.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    /** bwrap's namespaces, mounts and environment, read by bwrap from fd 5 rather than its command line. */
    List<String> bwrapOptions(RunSpec spec, Path egress) {
        List<String> c = new ArrayList<>();
        c.addAll(List.of("--unshare-user", "--disable-userns", "--uid", "" + SANDBOX_ID, "--gid", "" + SANDBOX_ID,
                "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup"));
        if (proxied(spec) && egress == null) {
            throw new IllegalArgumentException("Network is reached only through the egress proxy");
        }
        // the run's own empty network namespace, whatever its trust and network: the proxy is its only way out
        c.add("--unshare-net");
        c.addAll(List.of("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "agent"));
        if (spec.rootFileSystem()) {
            // the image's root, made by ImageArchive with every mount point below in place
            c.addAll(List.of("--ro-bind", spec.bundleDir().toAbsolutePath().toString(), "/"));
        } else {
            c.addAll(hostMounts);
        }
        c.addAll(List.of("--ro-bind-data", "3", "/etc/passwd", "--ro-bind-data", "4", "/etc/group"));
        c.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
        c.addAll(List.of("--size", "" + spec.limits().tmpBytes(), "--perms", "1777", "--tmpfs", "/tmp"));
        if (spec.scratch()) {
            // a bounded tmpfs rather than a host directory: the agent cannot fill the host's disk
            c.addAll(List.of("--size", "" + spec.limits().tmpBytes(), "--perms", "0700", "--tmpfs", "/scratch"));
        }
        if (!spec.rootFileSystem()) {
            c.addAll(List.of("--ro-bind", spec.bundleDir().toAbsolutePath().toString(), "/agent"));
        }
        if (egress != null) {
            c.addAll(List.of("--ro-bind", egress.toString(), "/run/atrium"));
        }
        c.addAll(List.of("--remount-ro", "/", "--chdir", spec.workingDir(), "--clearenv"));
        for (Map.Entry<String, String> e : spec.environment().entrySet()) {
            if (e.getKey().isEmpty() || e.getKey().contains("=") || e.getKey().indexOf('\0') >= 0
                    || e.getValue().indexOf('\0') >= 0) {
                throw new IllegalArgumentException("An environment variable that cannot be set: " + e.getKey());
            }
            c.addAll(List.of("--setenv", e.getKey(), e.getValue()));
        }
        for (var d : Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "HOME", "/tmp", "LANG", "C.UTF-8").entrySet()) {
            // an image's own Env (passed in the environment) keeps its PATH; a bundle always gets the host's
            if (!spec.rootFileSystem() || !spec.environment().containsKey(d.getKey())) {
                c.addAll(List.of("--setenv", d.getKey(), d.getValue()));
            }
        }
        if (spec.scratch()) {
            c.addAll(List.of("--setenv", "SCRATCH", "/scratch"));
        }
        if (egress != null) {
            String proxy = "http://127.0.0.1:" + EgressProxy.PORT;
            for (String name : List.of("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy")) {
                c.addAll(List.of("--setenv", name, proxy));
            }
        }
        return c;
    }

    /** Read-only host interpreters and libraries, merged-usr links kept as links; nothing else of the host. */
    private static List<String> hostMounts() {
        List<String> args = new ArrayList<>();
        for (String p : List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/alternatives",
                "/etc/ssl")) {
            Path path = Path.of(p);
            try {
                if (Files.isSymbolicLink(path)) {
                    args.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), p));
                } else if (Files.isDirectory(path)) {
                    args.addAll(List.of("--ro-bind", p, p));
                }
            } catch (IOException ignored) {
                // unreadable: not mounted
            }
        }
        return args;
    }

    private void checkBundle(Path bundleDir) {
        Path dir;
        try {
            dir = bundleDir.toRealPath();
        } catch (IOException e) {
            throw new SandboxRefused("The bundle directory " + bundleDir + " does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new SandboxRefused("The bundle " + bundleDir + " is not a directory");
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
            if (!perms.contains(PosixFilePermission.OTHERS_READ) || !perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                // the agent runs as nobody on the host too, so the bundle must be readable by others
                perms.add(PosixFilePermission.OTHERS_READ);
                perms.add(PosixFilePermission.OTHERS_EXECUTE);
                Files.setPosixFilePermissions(dir, perms);
            }
            for (Path p = dir.getParent(); p != null; p = p.getParent()) {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    throw new SandboxRefused("The bundle directory " + dir + " cannot be reached by uid " + SANDBOX_ID
                            + ": " + p + " is not searchable by others");
                }
            }
        } catch (IOException e) {
            throw new SandboxRefused("The bundle directory " + dir + " cannot be checked: " + e.getMessage(), e);
        }
    }

    private SandboxCapabilities detect() {
        List<String> problems = new ArrayList<>(cgroups.problems());
        boolean namespaces = false;
        for (String tool : List.of(BWRAP, SETPRIV)) {
            if (!Files.isExecutable(Path.of(tool))) {
                problems.add(tool + " is missing (run scripts/services, or install bubblewrap and util-linux)");
            }
        }
        if (problems.stream().noneMatch(p -> p.contains(" is missing"))) {
            Path trial = null;
            try {
                // an empty bundle where nobody can reach it (the work root is private to us)
                trial = Files.createTempDirectory("atrium-sandbox-trial");
                Files.setPosixFilePermissions(trial, PosixFilePermissions.fromString("rwxr-xr-x"));
                checkBundle(trial);
                var result = execute(new RunSpec(trial, List.of("/bin/true"), new byte[0], Map.of(), Limits.DEFAULTS,
                        Network.NONE, false, false, false), false);
                namespaces = result.succeeded();
                if (!namespaces) {
                    problems.add("A trial run of /bin/true under bwrap failed: " + result.detail() + " "
                            + result.stderrText().trim());
                }
            } catch (IOException | RuntimeException e) {
                problems.add("A trial run under bwrap failed: " + e.getMessage());
            } finally {
                if (trial != null) {
                    deleteTree(trial);
                }
            }
        }
        boolean audit = Files.isExecutable(Path.of(STRACE)) && namespaces && auditWorks(problems);
        if (!Files.isExecutable(Path.of(STRACE))) {
            problems.add("strace is missing: network calls cannot be audited (run scripts/services)");
        }
        // granted network goes through the egress proxy, whose relay inside the sandbox is a Python script
        boolean domains = namespaces && Files.isExecutable(Path.of(PYTHON3));
        if (!domains) {
            problems.add("No /usr/bin/python3 for the egress relay: a run granted network gets none");
        }
        return new SandboxCapabilities("bubblewrap", namespaces, cgroups.memory(), cgroups.cpu(),
                cgroups.pids() || Files.isExecutable(Path.of(PRLIMIT)), cgroups.version(), domains,
                audit, problems);
    }

    /** A trial of the audited launch: strace following setpriv and bwrap must work here (ptrace may be barred). */
    private boolean auditWorks(List<String> problems) {
        Path trial = null;
        try {
            trial = Files.createTempDirectory("atrium-sandbox-trial");
            Files.setPosixFilePermissions(trial, PosixFilePermissions.fromString("rwxr-xr-x"));
            var result = execute(new RunSpec(trial, List.of("/bin/true"), new byte[0], Map.of(), Limits.DEFAULTS,
                    Network.NONE, false, true, false), false);
            if (!result.succeeded()) {
                problems.add("A trial run under strace failed: " + result.detail() + " " + result.stderrText().trim());
            }
            return result.succeeded();
        } catch (IOException | RuntimeException e) {
            problems.add("A trial run under strace failed: " + e.getMessage());
            return false;
        } finally {
            if (trial != null) {
                deleteTree(trial);
            }
        }
    }

    /** Removes the groups and files that a crashed earlier process left behind (its pid is gone or reused). */
    private void sweep() {
        cgroups.sweep(BubblewrapExecutor::stale);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(workRoot)) {
            for (Path entry : entries) {
                if (stale(entry.getFileName().toString())) {
                    deleteTree(entry);
                }
            }
        } catch (IOException ignored) {
            // nothing to sweep
        }
        // the egress proxies' directories live in the temporary directory, named atrium-egress-<run>-<random>
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")),
                EgressProxy.DIR_PREFIX + "*")) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString().substring(EgressProxy.DIR_PREFIX.length());
                int cut = name.lastIndexOf('-');
                if (cut > 0 && stale(name.substring(0, cut))) {
                    deleteTree(entry);
                }
            }
        } catch (IOException ignored) {
            // nothing to sweep
        }
    }

    static boolean stale(String name) {
        Matcher old = OLD_RUN_NAME.matcher(name);
        if (!old.matches()) {
            // a probe group of a detection that did not finish
            old = PROBE_NAME.matcher(name);
        }
        if (old.matches()) {
            return ProcessHandle.of(Long.parseLong(old.group(1))).isEmpty();
        }
        Matcher m = RUN_NAME.matcher(name);
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        long ticks = startTicks(pid);
        return ticks < 0 || ticks != Long.parseLong(m.group(2));
    }

    /**
     * The process's start in clock ticks since boot (field 22 of /proc/PID/stat), or -1 when it is gone. Not a
     * wall-clock instant: those are derived from the boot time the kernel recomputes from the current clock, so two
     * processes may see a different figure for the same start once the clock has been adjusted, and one would sweep
     * the other's live runs.
     */
    static long startTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[19]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void kill(Process process, Cgroups.Group group) {
        if (group != null) {
            group.killAll();
        } else {
            // without cgroups: bwrap's pid namespace dies with its init, which dies with bwrap (--die-with-parent);
            // the descendants scan reads all of /proc, so it is kept to this case
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
        // the handle only signals: Process.destroyForcibly would also close the pipes under the pumps and lose
        // output not yet read
        process.toHandle().destroyForcibly();
    }

    static List<String> networkAttempts(Path audit) {
        List<String> attempts = new ArrayList<>();
        if (!Files.exists(audit)) {
            return attempts;
        }
        try (var lines = Files.lines(audit, StandardCharsets.UTF_8)) {
            lines.forEach(line -> {
                Matcher m = NETWORK_CALL.matcher(line);
                // the loopback set-up of bwrap (netlink) and name-service lookups (unix sockets) are not the network
                if (m.matches() && !line.contains("AF_NETLINK") && !line.contains("AF_UNIX")
                        && attempts.size() < MAX_NETWORK_ATTEMPTS) {
                    attempts.add(m.group(1));
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // an unreadable audit reports nothing
        }
        return attempts;
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void feed(OutputStream stdin, byte[] bytes) {
        try (stdin) {
            stdin.write(bytes);
        } catch (IOException ignored) {
            // the agent closed its stdin or ended: not our failure
        }
    }

    /** Waits for the process up to the time given, an interrupt noted but not cutting the wait short. */
    private static boolean waitQuietly(Process process, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits for a pump to drain its stream (or the time given), so no output is lost to an interrupt. */
    private static void joinQuietly(Thread t, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        boolean interrupted = false;
        while (t.isAlive() && System.nanoTime() < deadline) {
            try {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // swept by the next start
        }
    }

    /** Reads one output stream, keeping at most {@code cap} bytes; past the cap it calls for the kill and drains. */
    private static final class Pump implements Runnable {
        private final InputStream in;
        private final long cap;
        private final Runnable onOverflow;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private volatile boolean truncated;

        Pump(InputStream in, long cap, Runnable onOverflow) {
            this.in = in;
            this.cap = cap;
            this.onOverflow = onOverflow;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (kept) {
                        long room = cap - kept.size();
                        if (n > room) {
                            kept.write(buffer, 0, (int) Math.max(0, room));
                            if (!truncated) {
                                truncated = true;
                                onOverflow.run();
                            }
                        } else {
                            kept.write(buffer, 0, n);
                        }
                    }
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        }

        byte[] bytes() {
            synchronized (kept) {
                return kept.toByteArray();
            }
        }

        String text() {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        boolean truncated() {
            return truncated;
        }
    }
}
