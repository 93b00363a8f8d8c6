package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The login limits of spec 01: 5 attempts per address per 300 s, and 10 failures lock an account 30 minutes. */
@ExtendWith(AtriumServer.class)
class LoginLimitsIT {

    private static Reply attempt(Api from, String email, String password) {
        return from.post("/login", Map.of("email", email, "password", password));
    }

    @Test
    void whenAnAddressMakesASixthAttemptWithin300SecondsThen429UntilTheWindowEnds() {
        var from = Api.anonymous();
        try (var clock = ServerClock.borrowed()) {
            for (int i = 0; i < 5; i++) {
                assertThat(attempt(from, Accounts.uniqueEmail("spray"), "Wrong-Passw0rd").status()).isEqualTo(401);
            }
            var sixth = attempt(from, Accounts.uniqueEmail("spray"), "Wrong-Passw0rd");
            assertThat(sixth.status()).isEqualTo(429);
            assertThat(sixth.code()).isEqualTo(42900);
            assertThat(sixth.header("X-RateLimit-Limit")).isEqualTo("5");
            assertThat(sixth.header("X-RateLimit-Remaining")).isEqualTo("0");
            long reset = Long.parseLong(sixth.header("X-RateLimit-Reset"));
            assertThat(reset).isGreaterThan(Instant.now().getEpochSecond());
            assertThat(Long.parseLong(sixth.header("Retry-After"))).isBetween(1L, 300L);

            var user = Accounts.verified("blockedaddr");
            assertThat(attempt(from, user.email(), Accounts.PASSWORD).status())
                    .as("even correct credentials wait for the window").isEqualTo(429);
            clock.advance(Duration.ofSeconds(300));
            assertThat(attempt(from, user.email(), Accounts.PASSWORD).status()).isEqualTo(200);
        }
    }

    @Test
    void whenTenFailuresHitOneAccountThenItIsLockedFor30MinutesAfterTheLastFailure() {
        var user = Accounts.verified("locked");
        try (var clock = ServerClock.borrowed()) {
            for (int i = 1; i <= 9; i++) {
                assertThat(attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd").status()).as("failure " + i)
                        .isEqualTo(401);
            }
            var tenth = attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd");
            assertThat(tenth.status()).isEqualTo(423);
            assertThat(tenth.code()).isEqualTo(10004);
            var correct = attempt(Api.anonymous(), user.email(), Accounts.PASSWORD);
            assertThat(correct.status()).as("locked before the password is looked at").isEqualTo(423);
            assertThat(correct.header("Retry-After")).isNotNull();

            clock.advance(Duration.ofMinutes(29));
            assertThat(attempt(Api.anonymous(), user.email(), Accounts.PASSWORD).status()).isEqualTo(423);
            clock.advance(Duration.ofMinutes(1));
            assertThat(attempt(Api.anonymous(), user.email(), Accounts.PASSWORD).status()).isEqualTo(200);
            assertThat(attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd").status())
                    .as("the counter starts again").isEqualTo(401);
        }
        var audit = Accounts.admin().api().get("/admin/audit-logs?action=lockout&user_id=" + user.id()).json();
        assertThat(audit.get("total").asLong()).isEqualTo(1);
    }

    @Test
    void whenALoginSucceedsThenTheFailureCountStartsOver() {
        var user = Accounts.verified("cleared");
        for (int i = 0; i < 9; i++) {
            assertThat(attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd").status()).isEqualTo(401);
        }
        assertThat(attempt(Api.anonymous(), user.email(), Accounts.PASSWORD).status()).isEqualTo(200);
        for (int i = 0; i < 9; i++) {
            assertThat(attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd").status()).isEqualTo(401);
        }
        assertThat(attempt(Api.anonymous(), user.email(), Accounts.PASSWORD).status()).isEqualTo(200);
    }

    @Test
    void whenTheFailureCounterIsRenewedByEachFailureThenItLivesThirtyMinutesFromTheLastOne() {
        var user = Accounts.verified("renewed");
        try (var clock = ServerClock.borrowed()) {
            for (int i = 0; i < 5; i++) {
                attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd");
            }
            clock.advance(Duration.ofMinutes(20));
            for (int i = 0; i < 4; i++) {
                attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd");
            }
            clock.advance(Duration.ofMinutes(20));
            assertThat(attempt(Api.anonymous(), user.email(), "Wrong-Passw0rd").status())
                    .as("the tenth failure within 30 minutes of the ninth").isEqualTo(423);
        }
    }

    @Test
    void whenTheAccountDoesNotExistThenTheLockBehavesTheSame() {
        String ghost = Accounts.uniqueEmail("ghost");
        for (int i = 0; i < 9; i++) {
            assertThat(attempt(Api.anonymous(), ghost, "Wrong-Passw0rd").status()).isEqualTo(401);
        }
        assertThat(attempt(Api.anonymous(), ghost, "Wrong-Passw0rd").status()).isEqualTo(423);
    }
}
