package dev.atrium.sandbox;

import static dev.atrium.sandbox.TestImages.E;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An image agent end to end in the sandbox: an image archive built here from Debian's static busybox
 * ({@code busybox-static}, installed by scripts/services) and a shell-script agent, unpacked by
 * {@link ImageArchive}, run with its root as the sandbox's read-only {@code /}: the protocol on stdin and stdout, as
 * nobody, nothing of the host's file system, the limits.
 */
class ImageRunTest {

    static final Path BUSYBOX = Path.of("/bin/busybox");
    private static final Limits SMALL = new Limits(64 * Limits.MIB, 50, 32, Duration.ofSeconds(10), 64 * 1024,
            16 * 1024, 4 * Limits.MIB);
    private static final String AGENT = """
            #!/bin/sh
            input=$(cat)
            echo "agent log line" >&2
            if touch /written 2>/dev/null; then root=writable; else root=read-only; fi
            if [ -e /usr/bin/python3 ] || [ -e /home ]; then host=visible; else host=hidden; fi
            echo scratch > /tmp/x && tmp=$(cat /tmp/x)
            printf '{"output":{"echo":%s,"uid":"%s","root":"%s","host":"%s","tmp":"%s","pwd":"%s","greeting":"%s"}}\\n' \\
              "$input" "$(id -u)" "$root" "$host" "$tmp" "$(pwd)" "$GREETING"
            """;

    @TempDir
    static Path shared;
    private static BubblewrapExecutor executor;
    private static Path workRoot;
    private static Path rootfs;
    private static ImageArchive.Unpacked image;

    @BeforeAll
    static void unpackTheImage() throws IOException {
        if (!Files.isExecutable(Path.of(BubblewrapExecutor.BWRAP))) {
            fail("bubblewrap is not installed at /usr/bin/bwrap: run scripts/services before the sandbox's tests");
        }
        if (!Files.isRegularFile(BUSYBOX)) {
            fail("/bin/busybox is missing: run scripts/services (it installs busybox-static) before this test");
        }
        workRoot = shared.resolve("work");
        executor = BubblewrapExecutor.create(workRoot);
        assertThat(executor.capabilities().canRunUntrusted()).as(executor.capabilities().problems().toString())
                .isTrue();
        Path archive = shared.resolve("agent-image.tar");
        Files.write(archive, busyboxImage(AGENT, "{\"Entrypoint\":[\"/app/agent.sh\"],\"Env\":"
                + "[\"PATH=/bin\",\"GREETING=from the image\"],\"WorkingDir\":\"/app\"}"));
        // the agent runs as nobody: the directories above its root must be searchable by others
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        rootfs = shared.resolve("rootfs");
        image = ImageArchive.unpack(archive, rootfs, ImageArchive.Caps.of(10_000, 64 * Limits.MIB));
    }

    /** A two-layer image: busybox and its applet links, then the agent script. */
    static byte[] busyboxImage(String script, String runConfig) throws IOException {
        var base = new ArrayList<E>();
        base.add(E.d("bin"));
        base.add(E.f("bin/busybox", Files.readAllBytes(BUSYBOX), 0755));
        for (String applet : List.of("sh", "cat", "id", "touch", "printf", "pwd", "sleep", "echo", "ls")) {
            base.add(E.s("bin/" + applet, "/bin/busybox"));
        }
        byte[] app = TestImages.layer(E.d("app"), E.f("app/agent.sh", script.getBytes(StandardCharsets.UTF_8), 0755));
        return TestImages.dockerSave(List.of(TestImages.layer(base), app), runConfig);
    }

    @AfterEach
    void nothingLeftBehind() throws IOException {
        try (Stream<Path> files = Files.list(workRoot)) {
            assertThat(files.toList()).as("files left in the work root").isEmpty();
        }
    }

    private RunSpec spec(byte[] stdin, Limits limits, Network network) {
        var env = new java.util.LinkedHashMap<String, String>();
        for (String pair : image.config().env()) {
            int eq = pair.indexOf('=');
            env.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return new RunSpec(rootfs, image.config().command(), stdin, env, limits, network, false, false, true)
                .onRootFileSystem(image.config().workingDir());
    }

    @Test
    void whenTheImageAgentRunsThenItSpeaksTheProtocolAsNobodyOnAReadOnlyRootOfItsOwn() {
        RunResult result = executor.run(spec("{\"text\":\"hi\"}".getBytes(StandardCharsets.UTF_8), SMALL,
                Network.NONE));

        assertThat(result.succeeded()).as(result.detail() + " " + result.stderrText()).isTrue();
        assertThat(result.stdoutText()).contains("\"echo\":{\"text\":\"hi\"}", "\"uid\":\"65534\"",
                "\"root\":\"read-only\"", "\"host\":\"hidden\"", "\"tmp\":\"scratch\"", "\"pwd\":\"/app\"",
                "\"greeting\":\"from the image\"");
        assertThat(result.stderrText()).contains("agent log line");
        assertThat(rootfs.resolve("written")).doesNotExist();
    }

    @Test
    void whenTheImageAgentOutrunsItsTimeThenItIsKilled() {
        var spec = new RunSpec(rootfs, List.of("/bin/sleep", "30"), new byte[0], Map.of(),
                SMALL.withTimeout(Duration.ofSeconds(1)), Network.NONE, false, false, true).onRootFileSystem("/");
        RunResult result = executor.run(spec);
        assertThat(result.outcome()).isEqualTo(Outcome.TIMED_OUT);
    }

    @Test
    void whenAnImageAgentIsGrantedNetworkThenTheSandboxRefusesIt() {
        assertThatThrownBy(() -> executor.run(spec(new byte[0], SMALL, Network.to(List.of("example.com")))))
                .isInstanceOf(SandboxRefused.class).hasMessageContaining("cannot be given network");
    }

    @Test
    void whenTheAuditIsAskedThenTheImageAgentRunsUnderIt() {
        var spec = new RunSpec(rootfs, image.config().command(), "{}".getBytes(StandardCharsets.UTF_8), Map.of(),
                SMALL, Network.NONE, true, true, true).onRootFileSystem("/app");
        RunResult result = executor.run(spec);
        assertThat(result.succeeded()).as(result.detail() + " " + result.stderrText()).isTrue();
        assertThat(result.networkAttempts()).isEmpty();
    }
}
