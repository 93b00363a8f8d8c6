package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Changing and resetting passwords. */
@ExtendWith(AtriumServer.class)
class PasswordIT {

    private static final Pattern RESET_TOKEN = Pattern.compile("/password/reset\\?token=([\\w-]+)");

    @Test
    void whenChangingThePasswordThenOldCredentialsEndAndNewOnesAreHandedOut() {
        var user = Accounts.verified("changer");
        var wrong = user.api().post("/me/password", Map.of("old_password", "Not-The-0ne", "new_password", "Newer-Passw0rd"));
        assertThat(wrong.status()).isEqualTo(422);
        assertThat(wrong.json().at("/error/details").asText()).contains("old_password");
        var weak = user.api().post("/me/password", Map.of("old_password", Accounts.PASSWORD, "new_password", "weak"));
        assertThat(weak.status()).isEqualTo(422);

        // the revocation must fall in a later second than the credentials' issue: move the server clock, not wait
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(2));
            var changed = user.api().post("/me/password", Map.of("old_password", Accounts.PASSWORD,
                    "new_password", "Newer-Passw0rd"));
            assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
            String fresh = changed.json().get("access_token").asText();
            assertThat(user.api().get("/api/v1/users/me").status()).as("old access token").isEqualTo(401);
            assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                    .as("old refresh token").isEqualTo(401);
            assertThat(Api.anonymous().withToken(fresh).get("/api/v1/users/me").status()).isEqualTo(200);
            assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", "Newer-Passw0rd"))
                    .status()).isEqualTo(200);
            assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", Accounts.PASSWORD))
                    .status()).isEqualTo(401);
            var audit = Accounts.admin().api().get("/admin/audit-logs?action=password_change&user_id=" + user.id())
                    .json();
            assertThat(audit.get("total").asLong()).isEqualTo(2);
        }
    }

    @Test
    void whenForgettingThePasswordThenTheAnswerIsTheSameForAnyAddress() {
        var user = Accounts.verified("forgetful");
        var known = Api.anonymous().post("/password/forgot", Map.of("email", user.email()));
        var unknown = Api.anonymous().post("/password/forgot", Map.of("email", Accounts.uniqueEmail("ghost")));
        assertThat(known.status()).isEqualTo(200);
        assertThat(unknown.status()).isEqualTo(200);
        assertThat(unknown.body()).isEqualTo(known.body());
        assertThat(Api.anonymous().post("/password/forgot", Map.of("email", "not-an-address")).status())
                .isEqualTo(200);
    }

    @Test
    void whenResettingThenTheLinkWorksOnceAndEndsAllSessionsAndTokens() {
        var user = Accounts.verified("resetter");
        Api.anonymous().post("/password/forgot", Map.of("email", user.email()));
        String token = resetToken(user.email());
        assertThat(token).hasSizeGreaterThanOrEqualTo(43);

        assertThat(Api.anonymous().post("/password/reset", Map.of("token", token, "new_password", "weak")).status())
                .as("a weak password does not use up the link").isEqualTo(422);
        // the revocation must fall in a later second than the credentials' issue: move the server clock, not wait
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(2));
            var reset = Api.anonymous().post("/password/reset", Map.of("token", token,
                    "new_password", "Reset-Passw0rd"));
            assertThat(reset.status()).as(reset.toString()).isEqualTo(200);
            assertThat(user.api().get("/api/v1/users/me").status()).isEqualTo(401);
            assertThat(Api.anonymous().post("/password/reset", Map.of("token", token, "new_password", "Again-Passw0rd"))
                    .status()).as("single use").isEqualTo(400);
            assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", "Reset-Passw0rd"))
                    .status()).isEqualTo(200);
            assertThat(Api.anonymous().post("/password/reset", Map.of("token", "made-up", "new_password", "Made-Up-Passw0rd"))
                    .status()).isEqualTo(400);
        }
    }

    @Test
    void whenThirtyMinutesPassThenTheResetLinkExpires() {
        var user = Accounts.verified("slowreset");
        Api.anonymous().post("/password/forgot", Map.of("email", user.email()));
        String token = resetToken(user.email());
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofMinutes(30).plusSeconds(1));
            assertThat(Api.anonymous().post("/password/reset", Map.of("token", token, "new_password", "Late-Passw0rd"))
                    .status()).isEqualTo(400);
        }
    }

    private static String resetToken(String email) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            for (var message : AtriumServer.get().smtp().getReceivedMessages()) {
                try {
                    if (message.getAllRecipients()[0].toString().equalsIgnoreCase(email)) {
                        var m = RESET_TOKEN.matcher(message.getContent().toString());
                        if (m.find()) {
                            return m.group(1);
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            Accounts.sleep(100);
        }
        throw new AssertionError("No reset mail to " + email);
    }
}
