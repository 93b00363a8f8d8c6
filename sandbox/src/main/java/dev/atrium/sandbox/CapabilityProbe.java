package dev.atrium.sandbox;

import static dev.atrium.sandbox.BubblewrapExecutor.BWRAP;
import static dev.atrium.sandbox.BubblewrapExecutor.PRLIMIT;
import static dev.atrium.sandbox.BubblewrapExecutor.PYTHON3;
import static dev.atrium.sandbox.BubblewrapExecutor.SETPRIV;
import static dev.atrium.sandbox.BubblewrapExecutor.STRACE;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the machine lets the sandbox do: the programs present, the cgroup controllers, and trial runs of
 * {@code /bin/true} under bwrap and under strace (a kernel or a container may bar user namespaces or ptrace).
 */
final class CapabilityProbe {

    private final Cgroups cgroups;
    /** A run without cgroup limits. */
    private final Function<RunSpec, RunResult> trialRun;

    CapabilityProbe(Cgroups cgroups, Function<RunSpec, RunResult> trialRun) {
        this.cgroups = cgroups;
        this.trialRun = trialRun;
    }

    SandboxCapabilities detect() {
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
                BubblewrapExecutor.checkBundle(trial);
                var result = trialRun.apply(new RunSpec(trial, List.of("/bin/true"), new byte[0], Map.of(),
                        Limits.DEFAULTS, Network.NONE, false, false, false));
                namespaces = result.succeeded();
                if (!namespaces) {
                    problems.add("A trial run of /bin/true under bwrap failed: " + result.detail() + " "
                            + result.stderrText().trim());
                }
            } catch (IOException | RuntimeException e) {
                problems.add("A trial run under bwrap failed: " + e.getMessage());
            } finally {
                if (trial != null) {
                    FileTrees.delete(trial);
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
            var result = trialRun.apply(new RunSpec(trial, List.of("/bin/true"), new byte[0], Map.of(),
                    Limits.DEFAULTS, Network.NONE, false, true, false));
            if (!result.succeeded()) {
                problems.add("A trial run under strace failed: " + result.detail() + " " + result.stderrText().trim());
            }
            return result.succeeded();
        } catch (IOException | RuntimeException e) {
            problems.add("A trial run under strace failed: " + e.getMessage());
            return false;
        } finally {
            if (trial != null) {
                FileTrees.delete(trial);
            }
        }
    }
}
