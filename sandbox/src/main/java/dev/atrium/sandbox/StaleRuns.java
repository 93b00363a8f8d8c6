package dev.atrium.sandbox;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The groups and files that a crashed earlier process left behind, told apart from a live process's by the owner in
 * their names, read against /proc.
 */
final class StaleRuns {

    /** run-&lt;pid&gt;-&lt;its start time in clock ticks since boot&gt;-&lt;n&gt;: the owner, told apart from a reused pid. */
    private static final Pattern RUN_NAME = Pattern.compile("run-(\\d+)-(\\d+)-\\d+");
    /** The names of the first version, owned by wall-clock start times: swept only once their pid is gone. */
    private static final Pattern OLD_RUN_NAME = Pattern.compile("r-(\\d+)-\\d+-\\d+");
    private static final Pattern PROBE_NAME = Pattern.compile("probe-(\\d+)-\\d+");

    private StaleRuns() {
    }

    /** The prefix of the names of this process's runs; a sequence number completes each. */
    static String owner() {
        ProcessHandle self = ProcessHandle.current();
        return "run-" + self.pid() + "-" + startTicks(self.pid()) + "-";
    }

    /** Removes the groups and files that a crashed earlier process left behind (its pid is gone or reused). */
    static void sweep(Cgroups cgroups, Path workRoot) {
        cgroups.sweep(StaleRuns::stale);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(workRoot)) {
            for (Path entry : entries) {
                if (stale(entry.getFileName().toString())) {
                    FileTrees.delete(entry);
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
                    FileTrees.delete(entry);
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
}
