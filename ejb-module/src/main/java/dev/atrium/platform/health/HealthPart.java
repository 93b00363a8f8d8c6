package dev.atrium.platform.health;

/**
 * A line of the {@code /health} answer that a context owns (the models, the sandbox, the payments): the platform
 * names it without knowing the context. It never changes the answer's status.
 */
public interface HealthPart {

    /** The answer's field: {@code models}, {@code sandbox}, {@code payments}. */
    String name();

    /** The part in one phrase. */
    String describe();
}
