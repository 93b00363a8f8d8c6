package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Moves the application clock of the test server (the server allows it only in test deployments). Tests that move
 * it put it back in a finally block, since the server is shared by every test class.
 */
public final class ServerClock implements AutoCloseable {

    private ServerClock() {
    }

    /** Use in try-with-resources: the clock goes back to system time at the end. */
    public static ServerClock borrowed() {
        reset();
        return new ServerClock();
    }

    /** Moves it forward, or back (a negative duration, at most 31 days). */
    public void advance(Duration by) {
        var reply = Accounts.admin().api().post("/admin/clock", Map.of("advance_seconds", by.toSeconds()));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    public Instant now() {
        return Instant.parse(Accounts.admin().api().get("/admin/clock").json().get("now").asText());
    }

    public static void reset() {
        var reply = Accounts.admin().api().delete("/admin/clock");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    @Override
    public void close() {
        reset();
    }
}
