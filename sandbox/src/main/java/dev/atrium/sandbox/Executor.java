package dev.atrium.sandbox;

import java.time.Duration;

/**
 * Runs one agent process in isolation. Agent behaviour (a crash, a timeout, a limit reached, garbage on stdout)
 * is never an exception: it is a {@link RunResult} with its {@link Outcome}. Implementations remove everything a
 * run created on every path, and are safe for concurrent use.
 */
public interface Executor {

    /** What this executor can enforce on this machine, decided once. */
    SandboxCapabilities capabilities();

    /**
     * Runs the spec to completion or to its limits.
     *
     * @throws SandboxRefused when the spec asks for limits this machine cannot enforce (an untrusted run is refused,
     *                        never run unlimited), or the sandbox itself cannot start
     */
    RunResult run(RunSpec spec);

    /**
     * Makes the sandbox of {@code spec} and starts its process ahead of the call, waiting for the stdin given to
     * {@link Prepared#run(byte[])} ({@code spec}'s own stdin is not used). This default makes nothing ahead: the run
     * starts cold when the input arrives.
     *
     * @throws SandboxRefused as {@link #run(RunSpec)}
     */
    default Prepared prepare(RunSpec spec) {
        return new Prepared() {
            private boolean used;

            @Override
            public boolean waiting() {
                return !used;
            }

            @Override
            public boolean settled() {
                return true;
            }

            @Override
            public Duration cpuTime() {
                return Duration.ZERO;
            }

            @Override
            public RunResult run(byte[] stdin) {
                if (used) {
                    throw new IllegalStateException("A sandbox runs once");
                }
                used = true;
                return Executor.this.run(spec.withStdin(stdin));
            }

            @Override
            public void close() {
                used = true;
            }
        };
    }
}
