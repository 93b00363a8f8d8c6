package dev.atrium.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One run: the unpacked bundle (mounted read-only as the working directory), the command started there, the bytes
 * written to its stdin, the environment it sees (nothing else of the host's), its limits, its network, whether it
 * gets a writable scratch directory ({@code $SCRATCH}, only when filesystem access is declared), and whether its
 * network system calls are audited into {@link RunResult#networkAttempts()}. {@code untrusted} runs are refused when
 * the machine cannot enforce the limits. With {@code rootFileSystem}, {@code bundleDir} is an image's unpacked root
 * ({@link ImageArchive}): it becomes the sandbox's read-only {@code /} instead of the host's programs and
 * {@code /agent}, and the run starts in {@code workingDir}.
 */
public record RunSpec(Path bundleDir, List<String> command, byte[] stdin, Map<String, String> environment,
                      Limits limits, Network network, boolean scratch, boolean auditNetwork, boolean untrusted,
                      boolean rootFileSystem, String workingDir) {

    public RunSpec(Path bundleDir, List<String> command, byte[] stdin, Map<String, String> environment, Limits limits,
                   Network network, boolean scratch, boolean auditNetwork, boolean untrusted) {
        this(bundleDir, command, stdin, environment, limits, network, scratch, auditNetwork, untrusted, false,
                "/agent");
    }

    public RunSpec {
        Objects.requireNonNull(bundleDir, "bundleDir");
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("An empty command");
        }
        stdin = stdin == null ? new byte[0] : stdin.clone();
        environment = Map.copyOf(environment);
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(network, "network");
        workingDir = workingDir == null || workingDir.isBlank() ? (rootFileSystem ? "/" : "/agent") : workingDir;
        if (!workingDir.startsWith("/")) {
            throw new IllegalArgumentException("The working directory must be absolute: " + workingDir);
        }
    }

    /** This run with {@code bundleDir} as an image's root file system, started in {@code dir}. */
    public RunSpec onRootFileSystem(String dir) {
        return new RunSpec(bundleDir, command, stdin, environment, limits, network, scratch, auditNetwork, untrusted,
                true, dir);
    }

    /** This run with {@code input} as its stdin. */
    public RunSpec withStdin(byte[] input) {
        return new RunSpec(bundleDir, command, input, environment, limits, network, scratch, auditNetwork, untrusted,
                rootFileSystem, workingDir);
    }

    /** An untrusted run of {@code command} in {@code bundleDir} with no network, no scratch, no audit. */
    public static RunSpec of(Path bundleDir, List<String> command, byte[] stdin, Limits limits) {
        return new RunSpec(bundleDir, command, stdin, Map.of(), limits, Network.NONE, false, false, true);
    }
}
