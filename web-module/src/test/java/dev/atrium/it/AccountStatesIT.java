package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * "Not yet verified" and "deactivated by an administrator" are two facts: verification never lifts a deactivation,
 * each refusal has its own code, and an expired or lost verification link can be replaced by a new one.
 */
@ExtendWith(AtriumServer.class)
class AccountStatesIT {

    private static final Pattern VERIFY_LINK = Pattern.compile("https?://\\S+?(/verify-email\\?token=[\\w.-]+)");

    private record Registered(String email, String username, Api api) {
    }

    private static Registered register(String prefix) {
        Api api = Api.anonymous();
        String email = Accounts.uniqueEmail(prefix);
        var reply = api.post("/register", Map.of("email", email, "username", prefix, "password", Accounts.PASSWORD));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return new Registered(email, prefix, api);
    }

    /** The verification links mailed to this address so far, oldest first, waiting until there are {@code n}. */
    private static List<String> links(String email, int n) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<String> found = List.of();
        while (System.nanoTime() < deadline) {
            found = new ArrayList<>();
            for (String text : Accounts.mails(email)) {
                var m = VERIFY_LINK.matcher(text);
                if (m.find()) {
                    found.add(m.group(1));
                }
            }
            if (found.size() >= n) {
                return found;
            }
            Accounts.sleep(100);
        }
        throw new AssertionError("expected " + n + " verification mails to " + email + ", got " + found.size());
    }

    private static Reply login(String email) {
        return Api.anonymous().post("/login", Map.of("email", email, "password", Accounts.PASSWORD));
    }

    @Test
    void whenADeactivatedUserOpensTheOldVerificationLinkThenItStaysDeactivated() {
        var user = register("reopen");
        String link = links(user.email(), 1).get(0);
        assertThat(user.api().get(link).status()).isEqualTo(200);
        var account = Accounts.login(Api.anonymous(), user.email(), user.username());
        var admin = Accounts.admin();

        var off = admin.api().patch("/admin/users/" + account.id(),
                Map.of("is_active", false, "reason", "abuse report 17"));
        assertThat(off.status()).as(off.toString()).isEqualTo(200);
        assertThat(off.json().get("is_active").asBoolean()).isFalse();
        assertThat(off.json().get("deactivated_by").asLong()).isEqualTo(admin.id());
        assertThat(off.json().get("deactivation_reason").asText()).isEqualTo("abuse report 17");
        assertThat(off.json().get("deactivated_at").asText()).endsWith("Z");
        assertThat(off.json().get("email_verified_at").asText()).endsWith("Z");

        var again = user.api().get(link);
        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat(again.json().get("message").asText()).contains("deactivated");
        var refused = login(user.email());
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.code()).isEqualTo(10005);
        assertThat(refused.json().at("/error/message").asText()).contains("deactivated");
        assertThat(admin.api().get("/admin/users/" + account.id()).json().get("is_active").asBoolean()).isFalse();
        var sso = Api.anonymous().post("/sso/login", Map.of("email", user.email(), "password", Accounts.PASSWORD,
                "redirect_url", AtriumServer.SSO_SERVICE));
        assertThat(sso.code()).as("SSO login refuses the same way").isEqualTo(10005);
        assertThat(admin.api().get("/admin/users?is_active=false&email=" + user.email()).json().get("total")
                .asInt()).isEqualTo(1);

        var on = admin.api().patch("/admin/users/" + account.id(), Map.of("is_active", true));
        assertThat(on.status()).as(on.toString()).isEqualTo(200);
        assertThat(on.json().get("deactivated_at").isNull()).isTrue();
        assertThat(on.json().get("deactivation_reason").isNull()).isTrue();
        assertThat(login(user.email()).status()).isEqualTo(200);
    }

    @Test
    void whenAnUnverifiedUserLogsInThenTheVerifyFirstAnswerDiffersFromTheDeactivatedOne() {
        var user = register("unverified");
        var reply = login(user.email());
        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.code()).isEqualTo(40300);
        assertThat(reply.json().at("/error/message").asText()).contains("not verified").contains("resend");
    }

    @Test
    void whenAnAdministratorDeactivatesAnUnverifiedUserThenVerifyingLaterDoesNotActivateIt() {
        var user = register("unverified-off");
        String link = links(user.email(), 1).get(0);
        var admin = Accounts.admin();
        long id = admin.api().get("/admin/users?email=" + user.email()).json().get("items").get(0).get("id").asLong();
        var off = admin.api().patch("/admin/users/" + id, Map.of("is_active", false));
        assertThat(off.status()).as(off.toString()).isEqualTo(200);
        assertThat(off.json().get("deactivation_reason").isNull()).isTrue();

        assertThat(user.api().get(link).status()).isEqualTo(200);

        var view = admin.api().get("/admin/users/" + id).json();
        assertThat(view.get("email_verified_at").isNull()).isFalse();
        assertThat(view.get("is_active").asBoolean()).isFalse();
        assertThat(login(user.email()).code()).isEqualTo(10005);
    }

    @Test
    void whenTheDeactivationReasonIsTooLongOrNotTextThen422() {
        var target = Accounts.verified("reason");
        var admin = Accounts.admin();
        assertThat(admin.api().patch("/admin/users/" + target.id(),
                Map.of("is_active", false, "reason", "x".repeat(201))).status()).isEqualTo(422);
        assertThat(admin.api().patch("/admin/users/" + target.id(), Map.of("reason", "no flag")).status())
                .isEqualTo(422);
        assertThat(target.api().get("/api/v1/users/me").status()).as("nothing changed").isEqualTo(200);
    }

    @Test
    void whenANewVerificationMailIsAskedForThenOnlyTheNewLinkWorks() {
        var user = register("resend");
        String first = links(user.email(), 1).get(0);

        var resent = Api.anonymous().post("/verify-email/resend", Map.of("email", user.email().toUpperCase()));
        assertThat(resent.status()).as(resent.toString()).isEqualTo(202);
        String second = links(user.email(), 2).get(1);
        assertThat(second).isNotEqualTo(first);

        var old = user.api().get(first);
        assertThat(old.status()).as(old.toString()).isEqualTo(400);
        assertThat(user.api().get(second).status()).isEqualTo(200);
        assertThat(login(user.email()).status()).isEqualTo(200);
    }

    @Test
    void whenTheFirstLinkHasExpiredThenANewOneStillVerifies() {
        var user = register("expired");
        String first = links(user.email(), 1).get(0);
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofHours(25));
            assertThat(user.api().get(first).status()).isEqualTo(400);
            assertThat(Api.anonymous().post("/verify-email/resend", Map.of("email", user.email())).status())
                    .isEqualTo(202);
            String second = links(user.email(), 2).get(1);
            assertThat(user.api().get(second).status()).isEqualTo(200);
        }
        assertThat(login(user.email()).status()).isEqualTo(200);
    }

    @Test
    void whenTheAddressIsUnknownOrVerifiedThenTheSameAnswerAndNoMail() {
        var verified = Accounts.verified("resend-verified");
        int before = Accounts.mails(verified.email()).size();
        String unknown = Accounts.uniqueEmail("nobody");

        var a = Api.anonymous().post("/verify-email/resend", Map.of("email", verified.email()));
        var b = Api.anonymous().post("/verify-email/resend", Map.of("email", unknown));

        assertThat(a.status()).isEqualTo(202);
        assertThat(b.status()).isEqualTo(202);
        assertThat(a.body()).isEqualTo(b.body());
        Accounts.sleep(1500);
        assertThat(Accounts.mails(verified.email())).hasSize(before);
        assertThat(Accounts.mails(unknown)).isEmpty();
    }

    @Test
    void whenResendIsAskedTooOftenThenAtMostThreeMailsAnHourAndTheAddressIsLimited() {
        var user = register("resend-limit");
        links(user.email(), 1);
        for (int i = 0; i < 5; i++) {
            assertThat(Api.anonymous().post("/verify-email/resend", Map.of("email", user.email())).status())
                    .as("always 202 for the account limit: nothing revealed").isEqualTo(202);
        }
        links(user.email(), 4);
        Accounts.sleep(1500);
        assertThat(links(user.email(), 4)).as("registration + 3 resent").hasSize(4);

        Api one = Api.anonymous();
        for (int i = 0; i < 10; i++) {
            assertThat(one.post("/verify-email/resend", Map.of("email", Accounts.uniqueEmail("x"))).status())
                    .isEqualTo(202);
        }
        var limited = one.post("/verify-email/resend", Map.of("email", Accounts.uniqueEmail("x")));
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.code()).isEqualTo(42900);
        assertThat(limited.header("Retry-After")).isNotBlank();
    }

    @Test
    void whenTheResendBodyIsHostileThenA4xxInTheEnvelopeOrTheUsual202() {
        record Case(String body, String contentType, int status) {
        }
        var cases = List.of(
                new Case("", "application/json", 400),
                new Case("{", "application/json", 400),
                new Case("[]", "application/json", 400),
                new Case("null", "application/json", 422),
                new Case("{}", "application/json", 422),
                new Case("{\"email\":null}", "application/json", 422),
                new Case("{\"email\":\"\"}", "application/json", 422),
                new Case("{\"email\":\"   \"}", "application/json", 422),
                new Case("{\"email\":\"" + "a".repeat(400) + "@x.test\"}", "application/json", 422),
                new Case("{\"email\":{\"$ne\":null}}", "application/json", 400),
                new Case("{\"email\":[\"a@b.test\"]}", "application/json", 400),
                new Case("{\"email\":\"not-an-address\"}", "application/json", 202),
                new Case("{\"email\":\"a@b.test\\r\\nBcc: victim@x.test\"}", "application/json", 202),
                new Case("{\"email\":\"' OR 1=1 --@x.test\"}", "application/json", 202),
                new Case("{\"email\":\"\\u0000@x.test\"}", "application/json", 202),
                new Case("email=a@b.test", "application/x-www-form-urlencoded", 415),
                new Case("<email>a@b.test</email>", "application/xml", 415));
        for (var c : cases) {
            var reply = Api.anonymous().send("POST", "/verify-email/resend", c.body(), c.contentType());
            assertThat(reply.status()).as(c + " -> " + reply).isEqualTo(c.status());
            if (c.status() != 202) {
                assertThat(reply.json().at("/error/code").asInt()).as(c.toString()).isPositive();
            }
        }
        assertThat(Accounts.mails("victim@x.test")).isEmpty();
    }

    @Test
    void whenResendGetsRandomBodiesThenNeverA5xx() {
        var random = new Random(20261123L);
        String alphabet = "ab@.\"{}[]:,\\ \u00e9\u0000\r\n-+'%";
        for (int i = 0; i < 60; i++) {
            var text = new StringBuilder();
            int length = random.nextInt(40);
            for (int j = 0; j < length; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String body = random.nextBoolean() ? text.toString()
                    : "{\"email\":\"" + text.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
            var reply = Api.anonymous().send("POST", "/verify-email/resend", body, "application/json");
            assertThat(reply.status()).as(body + " -> " + reply).isBetween(200, 499);
            assertThat(reply.status()).as(body).isIn(202, 400, 415, 422);
        }
    }
}
