package dev.atrium.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The launched process of one run and the threads that feed its stdin and pump its output: the wait, the kill of its
 * whole tree (by its cgroups when it has them), and the end of the pumps without losing output to an interrupt.
 */
final class SandboxProcess {

    private final Process process;
    private final Cgroups.Group group;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean overflow = new AtomicBoolean();
    private Pump out;
    private Pump err;

    SandboxProcess(Process process, Cgroups.Group group) {
        this.process = process;
        this.group = group;
    }

    /** Starts the threads that read stdout and stderr up to their caps, killing the run past one. */
    void pumpOutput(String id, RunSpec spec) {
        Runnable killOnOverflow = () -> {
            if (overflow.compareAndSet(false, true)) {
                kill();
            }
        };
        out = new Pump(process.getInputStream(), spec.limits().maxStdoutBytes(), killOnOverflow);
        err = new Pump(process.getErrorStream(), spec.limits().maxStderrBytes(), killOnOverflow);
        threads.add(start("sandbox-stdout-" + id, out));
        threads.add(start("sandbox-stderr-" + id, err));
    }

    /** Starts the thread that writes the run's input to the process's stdin and then closes it. */
    void feed(String id, byte[] stdin) {
        threads.add(start("sandbox-stdin-" + id, () -> feed(process.getOutputStream(), stdin)));
    }

    /** Whether the process still runs. */
    boolean alive() {
        return process.isAlive();
    }

    /**
     * Whether both outputs reached their end within {@code millis}: nothing of the run holds them open any more, so
     * what was read is the whole output. An interrupt ends the wait early (and is kept).
     */
    boolean outputEnded(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        try {
            for (Thread t : threads.subList(0, 2)) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left > 0) {
                    t.join(left);
                }
                if (t.isAlive()) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the process ended within the timeout. */
    boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Kills whatever is left (a child that outlived its parent, a timed-out tree) and lets the pumps drain. */
    void finish() {
        kill();
        if (!waitQuietly(process, 5_000)) {
            process.toHandle().destroyForcibly();
        }
        for (Thread t : threads) {
            joinQuietly(t, 2_000);
        }
    }

    /** The exit value, -1 while it still runs. */
    int exit() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    boolean overflowed() {
        return overflow.get();
    }

    Pump stdout() {
        return out;
    }

    Pump stderr() {
        return err;
    }

    /** The cleanup of a run that did not get to {@link #finish()}: its tree killed. */
    void killIfAlive() {
        if (process.isAlive()) {
            kill();
        }
    }

    void interruptPumps() {
        for (Thread t : threads) {
            t.interrupt();
        }
    }

    private void kill() {
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

    /** Reads one output stream, keeping at most {@code cap} bytes; past the cap it calls for the kill and drains. */
    static final class Pump implements Runnable {
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
