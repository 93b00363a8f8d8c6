package dev.atrium.sandbox;

import java.time.Duration;

/**
 * A sandbox made ahead of its call: namespaces, limits and mounts in place and the agent's process started, waiting
 * for its stdin. It serves exactly one run and is then removed; {@link #close()} removes it unused. Owned by one
 * thread at a time.
 */
public interface Prepared extends AutoCloseable {

    /** Whether the process is still alive and the sandbox not yet used or closed. */
    boolean waiting();

    /**
     * Whether none of the sandbox's processes is running: its agent has started and waits (for its input, when it is
     * well-behaved). Always true where the executor cannot tell.
     */
    boolean settled();

    /**
     * The CPU time its processes used so far, from its cgroup: what the agent spent waiting, before its input.
     * {@link Duration#ZERO} where the executor does not account it.
     */
    Duration cpuTime();

    /**
     * Writes {@code stdin} to the waiting process and runs it to completion or to its limits, the timeout counted
     * from now; then removes the sandbox, as {@link Executor#run(RunSpec)} does. Agent behaviour is a
     * {@link RunResult}, never an exception.
     *
     * @throws IllegalStateException when this sandbox already ran or was closed
     */
    RunResult run(byte[] stdin);

    /** Kills the process tree and removes everything the sandbox made; safe to call more than once. */
    @Override
    void close();
}
