package dev.atrium.identity.control;

import dev.atrium.platform.events.ApplicationEvent;

/**
 * A user was deleted. Rows that refer to the user go with it in the database, and CDI observers of this event run
 * inside the deletion's transaction for what must go with it; work outside the database (stored objects) consumes
 * the {@value #QUEUE} queue after the commit.
 */
public record UserDeleted(long userId) implements ApplicationEvent {

    public static final String QUEUE = "users.deleted";

    @Override
    public String destination() {
        return QUEUE;
    }

    @Override
    public String payload() {
        return Long.toString(userId);
    }
}
