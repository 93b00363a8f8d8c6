package dev.atrium.sandbox;

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
}
