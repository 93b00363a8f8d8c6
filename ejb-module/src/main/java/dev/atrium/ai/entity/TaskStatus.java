package dev.atrium.ai.entity;

import java.util.Arrays;

/**
 * The states of a task, with the names spec 02 gives them on the wire: {@code submitted} (waiting in the queue,
 * also between retries), {@code running}, {@code PROGRESS} (running, with progress to show), and the two final
 * states {@code success} and {@code failure}.
 */
public enum TaskStatus {
    SUBMITTED("submitted"),
    RUNNING("running"),
    PROGRESS("PROGRESS"),
    SUCCESS("success"),
    FAILURE("failure");

    private final String value;

    TaskStatus(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public boolean finished() {
        return this == SUCCESS || this == FAILURE;
    }

    /** A worker holds the task now. */
    public boolean active() {
        return this == RUNNING || this == PROGRESS;
    }

    public static TaskStatus of(String value) {
        return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown task status " + value));
    }
}
