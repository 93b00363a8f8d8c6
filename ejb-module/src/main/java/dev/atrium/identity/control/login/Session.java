package dev.atrium.identity.control.login;

import java.time.Instant;

/** A server-side login session (spec 01 session record), referenced by the {@code session_id} cookie. */
public record Session(String id, long userId, Instant createdAt, String ipAddress, String userAgent) {
}
