package dev.atrium.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The cgroup side of the sandbox: finds which limits this machine can apply (cgroup v2 when the unified hierarchy
 * is mounted at the root, else the v1 controllers), and makes one group per run under a parent
 * {@value #PARENT} in each controller. A run's group is where the launcher puts itself before the agent starts, so
 * every descendant inherits the limits and can be found and killed as a whole.
 */
final class Cgroups {

    static final String PARENT = "atrium-sandbox";
    /** v1 controllers a run does without: no kill by freezing, no CPU time in the result. */
    private static final List<String> OPTIONAL = List.of("freezer", "cpuacct");
    /** Probes of executors created at once in one JVM must not share a directory. */
    private static final AtomicLong PROBES = new AtomicLong();

    private final Path root;
    private final String version;
    /** v1: controller name to its parent directory; v2: the single key "unified". */
    private final Map<String, Path> parents;
    private final boolean memory;
    private final boolean cpu;
    private final boolean pids;
    private final boolean freezer;
    private final List<String> problems;

    private Cgroups(Path root, String version, Map<String, Path> parents, boolean memory, boolean cpu, boolean pids,
                    boolean freezer, List<String> problems) {
        this.root = root;
        this.version = version;
        this.parents = parents;
        this.memory = memory;
        this.cpu = cpu;
        this.pids = pids;
        this.freezer = freezer;
        this.problems = List.copyOf(problems);
    }

    static Cgroups detect(Path root) {
        List<String> problems = new ArrayList<>();
        if (Files.isRegularFile(root.resolve("cgroup.controllers"))) {
            return detectV2(root, problems);
        }
        Map<String, Path> parents = new LinkedHashMap<>();
        for (String controller : List.of("memory", "cpu", "pids", "freezer", "cpuacct")) {
            Path dir = root.resolve(controller);
            if (controller.equals("cpuacct") && sameHierarchy(dir, root.resolve("cpu"))) {
                // mounted together with cpu ("cpu,cpuacct"): the cpu group accounts as well
                continue;
            }
            if (!Files.isRegularFile(dir.resolve("cgroup.procs"))) {
                if (!OPTIONAL.contains(controller)) {
                    problems.add("No cgroup v1 " + controller + " controller at " + dir);
                }
                continue;
            }
            String probe = switch (controller) {
                case "memory" -> "memory.limit_in_bytes";
                case "cpu" -> "cpu.cfs_quota_us";
                case "pids" -> "pids.max";
                case "freezer" -> "freezer.state";
                default -> "notify_on_release";
            };
            Optional<Path> parent = writableParent(dir, probe, problems, controller);
            parent.ifPresent(p -> parents.put(controller, p));
        }
        if (parents.isEmpty() && problems.size() >= 3) {
            return new Cgroups(root, "none", Map.of(), false, false, false, false, problems);
        }
        return new Cgroups(root, "v1", parents, parents.containsKey("memory"), parents.containsKey("cpu"),
                parents.containsKey("pids"), parents.containsKey("freezer"), problems);
    }

    private static Cgroups detectV2(Path root, List<String> problems) {
        try {
            String available = Files.readString(root.resolve("cgroup.controllers")).trim();
            List<String> wanted = new ArrayList<>();
            for (String c : List.of("memory", "cpu", "pids")) {
                if ((" " + available + " ").contains(" " + c + " ")) {
                    wanted.add(c);
                } else {
                    problems.add("The cgroup v2 " + c + " controller is not available at " + root);
                }
            }
            Path parent = root.resolve(PARENT);
            Files.createDirectories(parent);
            StringBuilder enable = new StringBuilder();
            wanted.forEach(c -> enable.append(" +").append(c));
            if (!wanted.isEmpty()) {
                write(root.resolve("cgroup.subtree_control"), enable.toString().trim());
                write(parent.resolve("cgroup.subtree_control"), enable.toString().trim());
            }
            Path probe = parent.resolve("probe-" + ProcessHandle.current().pid() + "-" + PROBES.incrementAndGet());
            Files.createDirectories(probe);
            try {
                boolean mem = wanted.contains("memory") && tryWrite(probe.resolve("memory.max"), "max", problems);
                boolean cpu = wanted.contains("cpu") && tryWrite(probe.resolve("cpu.max"), "max 100000", problems);
                boolean pids = wanted.contains("pids") && tryWrite(probe.resolve("pids.max"), "max", problems);
                boolean kill = Files.exists(probe.resolve("cgroup.kill")) || Files.exists(probe.resolve("cgroup.freeze"));
                return new Cgroups(root, "v2", Map.of("unified", parent), mem, cpu, pids, kill, problems);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | RuntimeException e) {
            problems.add("The cgroup v2 hierarchy at " + root + " is not writable: " + e.getMessage());
            return new Cgroups(root, "v2", Map.of(), false, false, false, false, problems);
        }
    }

    private static boolean sameHierarchy(Path a, Path b) {
        try {
            return Files.isDirectory(a) && Files.isDirectory(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    private static Optional<Path> writableParent(Path dir, String probeFile, List<String> problems, String controller) {
        Path parent = dir.resolve(PARENT);
        Path probe = parent.resolve("probe-" + ProcessHandle.current().pid() + "-" + PROBES.incrementAndGet());
        try {
            Files.createDirectories(parent);
            Files.createDirectories(probe);
            try {
                String current = Files.readString(probe.resolve(probeFile)).trim();
                write(probe.resolve(probeFile), current);
                return Optional.of(parent);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | RuntimeException e) {
            problems.add("The cgroup v1 " + controller + " controller at " + dir + " is not writable: "
                    + e.getMessage());
            return Optional.empty();
        }
    }

    private static boolean tryWrite(Path file, String value, List<String> problems) {
        try {
            write(file, value);
            return true;
        } catch (IOException e) {
            problems.add("Cannot write " + file + ": " + e.getMessage());
            return false;
        }
    }

    static void write(Path file, String value) throws IOException {
        Files.write(file, value.getBytes(StandardCharsets.US_ASCII));
    }

    String version() {
        return version;
    }

    boolean memory() {
        return memory;
    }

    boolean cpu() {
        return cpu;
    }

    boolean pids() {
        return pids;
    }

    List<String> problems() {
        return problems;
    }

    boolean any() {
        return !parents.isEmpty();
    }

    /** Creates the run's group in every usable controller and applies the limits. */
    Group create(String name, Limits limits) throws IOException {
        var group = new Group(name);
        try {
            for (var e : parents.entrySet()) {
                Path dir = e.getValue().resolve(name);
                Files.createDirectory(dir);
                group.dirs.put(e.getKey(), dir);
            }
            group.apply(limits);
            return group;
        } catch (IOException | RuntimeException e) {
            group.close();
            throw e;
        }
    }

    /** Kills and removes the per-run groups whose owner the predicate calls stale (left by a crashed process). */
    void sweep(Predicate<String> stale) {
        for (var e : parents.entrySet()) {
            try (DirectoryStream<Path> children = Files.newDirectoryStream(e.getValue())) {
                for (Path child : children) {
                    String name = child.getFileName().toString();
                    if (Files.isDirectory(child) && stale.test(name)) {
                        var group = new Group(name);
                        parents.forEach((controller, parent) -> {
                            Path dir = parent.resolve(name);
                            if (Files.isDirectory(dir)) {
                                group.dirs.put(controller, dir);
                            }
                        });
                        group.close();
                    }
                }
            } catch (IOException ignored) {
                // nothing to sweep here
            }
        }
    }

    /** One run's group across the controllers. */
    final class Group implements AutoCloseable {
        private final String name;
        private final Map<String, Path> dirs = new LinkedHashMap<>();

        private Group(String name) {
            this.name = name;
        }

        private void apply(Limits limits) throws IOException {
            // a few processes of our own (sh, strace, bwrap and its init) come before the agent's first
            long processes = limits.maxProcesses() + 4L;
            if (version.equals("v2")) {
                Path dir = dirs.get("unified");
                if (memory) {
                    write(dir.resolve("memory.max"), Long.toString(limits.memoryBytes()));
                    if (Files.exists(dir.resolve("memory.swap.max"))) {
                        write(dir.resolve("memory.swap.max"), "0");
                    }
                }
                if (cpu) {
                    long period = 100_000;
                    write(dir.resolve("cpu.max"), limits.cpuPercent() * period / 100 + " " + period);
                }
                if (pids) {
                    write(dir.resolve("pids.max"), Long.toString(processes));
                }
                return;
            }
            Path mem = dirs.get("memory");
            if (mem != null) {
                write(mem.resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
                // swap must not stretch the limit: memory plus swap is held to the same figure
                if (Files.exists(mem.resolve("memory.memsw.limit_in_bytes"))) {
                    write(mem.resolve("memory.memsw.limit_in_bytes"), Long.toString(limits.memoryBytes()));
                }
                if (Files.exists(mem.resolve("memory.swappiness"))) {
                    tryWrite(mem.resolve("memory.swappiness"), "0", new ArrayList<>());
                }
            }
            Path cpuDir = dirs.get("cpu");
            if (cpuDir != null) {
                long period = Long.parseLong(Files.readString(cpuDir.resolve("cpu.cfs_period_us")).trim());
                write(cpuDir.resolve("cpu.cfs_quota_us"), Long.toString(limits.cpuPercent() * period / 100));
            }
            Path pidDir = dirs.get("pids");
            if (pidDir != null) {
                write(pidDir.resolve("pids.max"), Long.toString(processes));
            }
        }

        /** The cgroup.procs files the launcher writes its own pid to. */
        List<Path> procsFiles() {
            return dirs.values().stream().map(d -> d.resolve("cgroup.procs")).toList();
        }

        String name() {
            return name;
        }

        /**
         * Whether every process of the group is asleep: none runs or waits on the disk. A sandbox made ahead is then
         * past its agent's start and waiting (for its input, in a well-behaved agent).
         */
        boolean settled() {
            for (long pid : pids()) {
                try {
                    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                    char state = stat.charAt(stat.lastIndexOf(')') + 2);
                    if (state == 'R' || state == 'D') {
                        return false;
                    }
                } catch (IOException | RuntimeException e) {
                    // gone meanwhile
                }
            }
            return true;
        }

        List<Long> pids() {
            List<Long> pids = new ArrayList<>();
            for (Path dir : dirs.values()) {
                try {
                    for (String line : Files.readAllLines(dir.resolve("cgroup.procs"))) {
                        if (!line.isBlank()) {
                            long pid = Long.parseLong(line.trim());
                            if (!pids.contains(pid)) {
                                pids.add(pid);
                            }
                        }
                    }
                } catch (IOException | NumberFormatException ignored) {
                    // the group is gone already
                }
            }
            return pids;
        }

        /** Kills every process in the group, frozen first so a fork bomb cannot outrun the kill. */
        void killAll() {
            Path unified = dirs.get("unified");
            if (unified != null && Files.exists(unified.resolve("cgroup.kill"))) {
                tryWrite(unified.resolve("cgroup.kill"), "1", new ArrayList<>());
            }
            Path freeze = unified != null ? unified.resolve("cgroup.freeze")
                    : dirs.containsKey("freezer") ? dirs.get("freezer").resolve("freezer.state") : null;
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (true) {
                List<Long> pids = pids();
                if (pids.isEmpty() || System.nanoTime() > deadline) {
                    return;
                }
                boolean frozen = freeze != null && freeze(freeze, true);
                for (long pid : pids) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
                if (frozen) {
                    freeze(freeze, false);
                }
                sleepQuietly(5);
            }
        }

        private boolean freeze(Path file, boolean on) {
            boolean v2 = file.getFileName().toString().equals("cgroup.freeze");
            String value = v2 ? (on ? "1" : "0") : (on ? "FROZEN" : "THAWED");
            if (!tryWrite(file, value, new ArrayList<>())) {
                return false;
            }
            if (!on) {
                return true;
            }
            for (int i = 0; i < 100; i++) {
                try {
                    if (v2 ? Files.readString(file.resolveSibling("cgroup.events")).contains("frozen 1")
                            : Files.readString(file).trim().equals("FROZEN")) {
                        return true;
                    }
                } catch (IOException e) {
                    return false;
                }
                sleepQuietly(1);
            }
            return true;
        }

        /** Whether the kernel's OOM killer killed a process of this group. */
        boolean oomKilled() {
            Path mem = dirs.containsKey("memory") ? dirs.get("memory") : dirs.get("unified");
            if (mem == null) {
                return false;
            }
            String file = version.equals("v2") ? "memory.events" : "memory.oom_control";
            try {
                for (String line : Files.readAllLines(mem.resolve(file))) {
                    if (line.startsWith("oom_kill ")) {
                        return Long.parseLong(line.substring(9).trim()) > 0;
                    }
                }
                if (!version.equals("v2")) {
                    // kernels before 4.13 have no oom_kill counter: the limit was hit at least
                    return Long.parseLong(Files.readString(mem.resolve("memory.failcnt")).trim()) > 0;
                }
            } catch (IOException | NumberFormatException ignored) {
                // unknown
            }
            return false;
        }

        long peakMemory() {
            Path mem = dirs.containsKey("memory") ? dirs.get("memory") : dirs.get("unified");
            if (mem == null) {
                return 0;
            }
            String file = version.equals("v2") ? "memory.peak" : "memory.max_usage_in_bytes";
            try {
                return Long.parseLong(Files.readString(mem.resolve(file)).trim());
            } catch (IOException | NumberFormatException e) {
                return 0;
            }
        }

        /**
         * The group's share of a busy CPU against the other runs: {@code low} for a sandbox made ahead, so calls that
         * run come first and a start ahead only takes what they leave; the default share again for its own call.
         * Best effort: the limits, not the share, are what bound a run.
         */
        void share(boolean low) {
            try {
                if (version.equals("v2")) {
                    if (cpu) {
                        write(dirs.get("unified").resolve("cpu.weight"), low ? "1" : "100");
                    }
                } else if (dirs.get("cpu") != null) {
                    write(dirs.get("cpu").resolve("cpu.shares"), low ? "2" : "1024");
                }
            } catch (IOException e) {
                // the group keeps the default share
            }
        }

        /**
         * The CPU time (user and system) the group's processes used: v2 {@code cpu.stat usage_usec}, v1
         * {@code cpuacct.usage} (nanoseconds) of the cpuacct group, or of the cpu group when both are one hierarchy;
         * zero when this machine does not account it.
         */
        Duration cpuTime() {
            try {
                Path unified = dirs.get("unified");
                if (unified != null) {
                    for (String line : Files.readAllLines(unified.resolve("cpu.stat"))) {
                        if (line.startsWith("usage_usec ")) {
                            return Duration.ofNanos(Long.parseLong(line.substring(11).trim()) * 1000);
                        }
                    }
                    return Duration.ZERO;
                }
                Path acct = dirs.containsKey("cpuacct") ? dirs.get("cpuacct") : dirs.get("cpu");
                if (acct == null || !Files.exists(acct.resolve("cpuacct.usage"))) {
                    return Duration.ZERO;
                }
                return Duration.ofNanos(Long.parseLong(Files.readString(acct.resolve("cpuacct.usage")).trim()));
            } catch (IOException | NumberFormatException e) {
                return Duration.ZERO;
            }
        }

        /** Kills what is left and removes the group's directories (retrying while the kernel releases them). */
        @Override
        public void close() {
            killAll();
            for (Path dir : dirs.values()) {
                for (int i = 0; i < 200 && Files.exists(dir); i++) {
                    try {
                        Files.delete(dir);
                    } catch (IOException e) {
                        killAll();
                        sleepQuietly(5);
                    }
                }
            }
        }
    }

    /** A pause in the cleanup loops; an interrupt does not cut the cleanup short, it is kept for the caller. */
    static void sleepQuietly(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        boolean interrupted = false;
        while (System.nanoTime() < end) {
            try {
                Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    Path root() {
        return root;
    }
}
