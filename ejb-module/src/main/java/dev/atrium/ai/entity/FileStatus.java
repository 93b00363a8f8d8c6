package dev.atrium.ai.entity;

import java.util.Arrays;
import java.util.Locale;

/**
 * The states of an uploaded file: {@code uploaded} (stored, its parse job queued), {@code processing} (a worker is
 * extracting its text), and the two final states {@code ready} (text and metadata readable) and {@code failed}
 * (with the reason).
 */
public enum FileStatus {
    UPLOADED,
    PROCESSING,
    READY,
    FAILED;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
        return this == READY || this == FAILED;
    }

    public static FileStatus of(String value) {
        return Arrays.stream(values()).filter(s -> s.value().equals(value)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown file status " + value));
    }
}
