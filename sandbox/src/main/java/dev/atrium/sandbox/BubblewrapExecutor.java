package dev.atrium.sandbox;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
 *
 * <p>This class orchestrates a run; the arguments are built by {@link BwrapArguments}, the machine is probed by
 * {@link CapabilityProbe}, the process is started, pumped and killed by {@link SandboxProcess}, a crashed process's
 * leftovers are found by {@link StaleRuns}, the network audit is read by {@link StraceAudit}.
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

    private final Path workRoot;
    private final Cgroups cgroups;
    private final SandboxCapabilities capabilities;
    private final String owner;
    /** How long a run whose process exited waits for its outputs to end before it kills what holds them. */
    private static final long OUTPUT_GRACE_MILLIS = 20;
    /**
     * Removes the sandboxes of finished prepared runs after their answer: two threads, made when first needed. A
     * sandbox left here when the JVM ends is swept by the next executor ({@link StaleRuns}).
     */
    static final ThreadPoolExecutor REMOVALS = new ThreadPoolExecutor(2, 2, 30, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), work -> {
                Thread t = new Thread(work, "sandbox-removals");
                t.setDaemon(true);
                return t;
            });

    /**
     * Past this many removals waiting, a run removes its own sandbox before it answers: under a burst the removals
     * cannot fall behind, nor can what a run left in its groups outlive its answer for long.
     */
    private static final int MAX_PENDING_REMOVALS = 16;

    static {
        REMOVALS.allowCoreThreadTimeOut(true);
    }

    /** Shared by every executor of this JVM, so two of them never name a run alike. */
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private final BwrapArguments arguments;

    private final AddressPolicy egressPolicy;

    private BubblewrapExecutor(Path workRoot, Cgroups cgroups, AddressPolicy egressPolicy) {
        this.workRoot = workRoot;
        this.cgroups = cgroups;
        this.egressPolicy = egressPolicy;
        this.owner = StaleRuns.owner();
        this.arguments = new BwrapArguments(cgroups.pids());
        StaleRuns.sweep(cgroups, workRoot);
        this.capabilities = new CapabilityProbe(cgroups, spec -> execute(spec, false)).detect();
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
        refuseWhatCannotRun(spec);
        if (Thread.currentThread().isInterrupted()) {
            // as a blocking call would: an interrupted caller gets no run at all
            return new RunResult(Outcome.KILLED, -1, new byte[0], new byte[0], false, false, Duration.ZERO, 0,
                    List.of(), "The calling thread was interrupted before the run started");
        }
        return execute(spec, cgroups.any());
    }

    private void refuseWhatCannotRun(RunSpec spec) {
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
    }

    @Override
    public Prepared prepare(RunSpec spec) {
        refuseWhatCannotRun(spec);
        if (!cgroups.any()) {
            // without a cgroup nothing would bound or account what the agent does while it waits: run at the input
            return Executor.super.prepare(spec);
        }
        return launch(spec, true, true);
    }

    private RunResult execute(RunSpec spec, boolean limited) {
        return launch(spec, limited, false).run(spec.stdin(), false);
    }

    /**
     * Makes the run's directory, cgroups and egress proxy and starts its process tree, which waits for its stdin; on
     * a failure everything made so far is removed.
     */
    private Launched launch(RunSpec spec, boolean limited, boolean ahead) {
        var run = new Launched(owner + SEQUENCE.incrementAndGet(), spec);
        try {
            Files.createDirectory(run.dir);
            if (limited) {
                run.group = cgroups.create(run.id, spec.limits());
                if (ahead) {
                    run.group.share(true);
                }
            }
            if (proxied(spec)) {
                run.proxy = EgressProxy.start(run.id, spec.network(), egressPolicy);
            }
            Path options = run.dir.resolve("bwrap.options");
            Files.write(options, BwrapArguments.nulSeparated(bwrapOptions(spec, run.proxy == null ? null
                    : run.proxy.dir())));
            var builder = new ProcessBuilder(arguments.command(spec, run.audit(), run.proxy != null));
            // the launcher starts in / with an empty environment: nothing of the server's shows inside
            builder.directory(new File("/"));
            builder.environment().clear();
            builder.environment().put("ATRIUM_BWRAP_OPTIONS", options.toString());
            if (run.group != null) {
                builder.environment().put("ATRIUM_CGROUP_PROCS", String.join(" ",
                        run.group.procsFiles().stream().map(Path::toString).toList()));
            }
            run.process = new SandboxProcess(builder.start(), run.group);
            run.process.pumpOutput(run.id, spec);
            return run;
        } catch (IOException | RuntimeException e) {
            run.close();
            throw e instanceof IOException io ? new SandboxRefused("The sandbox could not start: " + io.getMessage(),
                    io) : (RuntimeException) e;
        }
    }

    /** A started run: its files, groups, proxy and process, removed together by {@link #close()}. */
    private final class Launched implements Prepared {
        private final String id;
        private final RunSpec spec;
        private final Path dir;
        private Cgroups.Group group;
        private EgressProxy proxy;
        private SandboxProcess process;
        private boolean used;

        private Launched(String id, RunSpec spec) {
            this.id = id;
            this.spec = spec;
            this.dir = workRoot.resolve(id);
        }

        private Path audit() {
            return dir.resolve("network.audit");
        }

        @Override
        public boolean waiting() {
            return !used && process != null && process.alive();
        }

        @Override
        public boolean settled() {
            return group == null || group.settled();
        }

        @Override
        public Duration cpuTime() {
            return group == null ? Duration.ZERO : group.cpuTime();
        }

        @Override
        public RunResult run(byte[] stdin) {
            if (group != null && !used) {
                group.share(false);
            }
            return run(stdin, true);
        }

        /**
         * With {@code removeAfter}, a run whose process exited on its own and whose outputs ended answers at once and
         * leaves its removal (the kill of anything left in its groups, the groups, the proxy, the files) to
         * {@link #REMOVALS}; otherwise it answers once everything is removed.
         */
        private RunResult run(byte[] stdin, boolean removeAfter) {
            if (used) {
                throw new IllegalStateException("A sandbox runs once");
            }
            used = true;
            boolean restoreInterrupt = false;
            boolean removed = false;
            try {
                long started = System.nanoTime();
                process.feed(id, stdin == null ? new byte[0] : stdin);
                boolean timedOut = false;
                boolean interrupted = false;
                try {
                    timedOut = !process.waitFor(spec.limits().timeout());
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (removeAfter && !timedOut && !interrupted && !process.overflowed()
                        && process.outputEnded(OUTPUT_GRACE_MILLIS)
                        && REMOVALS.getQueue().size() < MAX_PENDING_REMOVALS) {
                    RunResult result = result(false, false, Duration.ofNanos(System.nanoTime() - started));
                    REMOVALS.execute(this::close);
                    removed = true;
                    return result;
                }
                process.finish();
                Duration wall = Duration.ofNanos(System.nanoTime() - started);
                restoreInterrupt = interrupted;
                return result(timedOut, interrupted, wall);
            } finally {
                if (!removed) {
                    // the cleanup's file writes go through interruptible channels: run it with the flag cleared,
                    // then restore
                    restoreInterrupt |= Thread.interrupted();
                    try {
                        close();
                    } finally {
                        if (restoreInterrupt || Thread.interrupted()) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            }
        }

        private RunResult result(boolean timedOut, boolean interrupted, Duration wall) {
            int exit = process.exit();
            SandboxProcess.Pump out = process.stdout();
            SandboxProcess.Pump err = process.stderr();
            if (exit == 125 && err.text().startsWith("atrium-sandbox: cannot join")) {
                throw new SandboxRefused(err.text().trim());
            }
            boolean oom = group != null && group.oomKilled();
            long peak = group == null ? 0 : group.peakMemory();
            Duration cpuTime = group == null ? Duration.ZERO : group.cpuTime();
            List<String> attempts = new ArrayList<>(
                    spec.auditNetwork() ? StraceAudit.networkAttempts(audit()) : List.of());
            if (proxy != null) {
                attempts.addAll(proxy.log());
            }
            Outcome outcome;
            String detail;
            if (interrupted) {
                outcome = Outcome.KILLED;
                detail = "The run was interrupted and its process tree killed";
            } else if (process.overflowed()) {
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
            return new RunResult(outcome, exitCode, out.bytes(), err.bytes(), out.truncated(), err.truncated(),
                    wall, peak, cpuTime, attempts, detail);
        }

        @Override
        public void close() {
            used = true;
            boolean interrupted = Thread.interrupted();
            try {
                if (process != null) {
                    process.killIfAlive();
                }
                if (group != null) {
                    group.close();
                }
                if (proxy != null) {
                    proxy.close();
                }
                if (process != null) {
                    process.interruptPumps();
                }
                FileTrees.delete(dir);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Network granted, or the invoke gateway to reach: the run goes out only through the egress proxy. */
    static boolean proxied(RunSpec spec) {
        return BwrapArguments.proxied(spec);
    }

    /** bwrap's namespaces, mounts and environment, read by bwrap from fd 5 rather than its command line. */
    List<String> bwrapOptions(RunSpec spec, Path egress) {
        return arguments.bwrapOptions(spec, egress);
    }

    static void checkBundle(Path bundleDir) {
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

    /** Waits until the removals handed over before this call are done (tests). */
    static void awaitRemovals() throws Exception {
        // both threads meet here only once each finished what was queued before
        var barrier = new CountDownLatch(2);
        var done = new ArrayList<Future<?>>();
        for (int i = 0; i < 2; i++) {
            done.add(REMOVALS.submit(() -> {
                barrier.countDown();
                return barrier.await(30, TimeUnit.SECONDS);
            }));
        }
        for (var f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    /** Removes a tree of files, as {@link FileTrees#delete(Path)}. */
    static void deleteTree(Path root) {
        FileTrees.delete(root);
    }
}
