package dev.atrium.sdk;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} header (RFC 9110: whole seconds, or an HTTP date). Whatever a server or a proxy sends is
 * untrusted: an unreadable value is empty (the client's own backoff applies), a date in the past is zero, and an
 * absurdly long wait is answered as it is, for the client to refuse.
 */
final class RetryAfter {

    private static final int MAX_LENGTH = 64;

    private RetryAfter() {
    }

    static Optional<Duration> parse(String header, Instant now) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.trim();
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        if (value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // more digits than a long holds is still a number, and a wait nobody makes
            return Optional.of(value.length() > 18 ? Duration.ofSeconds(Long.MAX_VALUE)
                    : Duration.ofSeconds(Long.parseLong(value)));
        }
        try {
            var date = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration wait = Duration.between(now, date);
            return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
