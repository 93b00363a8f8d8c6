package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Refresh, logout and the lifetimes of tokens (spec 01 token states). */
@ExtendWith(AtriumServer.class)
class TokenLifecycleIT {

    @Test
    void whenRefreshingThenANewAccessTokenFromJsonFormOrQuery() {
        var user = Accounts.verified("refresh");
        var api = Api.anonymous();
        var json = api.post("/refresh", Map.of("refresh_token", user.refreshToken()));
        assertThat(json.status()).as(json.toString()).isEqualTo(200);
        assertThat(json.json().get("token_type").asText()).isEqualTo("bearer");
        String access = json.json().get("access_token").asText();
        assertThat(IdentityIT.part(access, 1).get("type").asText()).isEqualTo("access");
        assertThat(api.withToken(access).get("/api/v1/users/me").status()).isEqualTo(200);
        assertThat(api.postForm("/refresh", Map.of("refresh_token", user.refreshToken())).status()).isEqualTo(200);
        assertThat(api.post("/refresh?refresh_token=" + user.refreshToken()).status()).isEqualTo(200);
        // each refresh is audited
        var audit = Accounts.admin().api().get("/admin/audit-logs?action=refresh&user_id=" + user.id()).json();
        assertThat(audit.get("total").asLong()).isEqualTo(3);
        assertThat(audit.get("items")).allSatisfy(entry -> assertThat(entry.get("success").asBoolean()).isTrue());
    }

    @Test
    void whenRefreshingWithAnythingButARefreshTokenThen401() {
        var user = Accounts.verified("notrefresh");
        var api = Api.anonymous();
        assertThat(api.post("/refresh", Map.of("refresh_token", user.accessToken())).status()).isEqualTo(401);
        assertThat(api.post("/refresh", Map.of("refresh_token", "garbage")).status()).isEqualTo(401);
        assertThat(api.post("/refresh", Map.of()).status()).isEqualTo(401);
    }

    @Test
    void whenLoggingOutWithABearerTokenThenThatTokenIsRefusedAfterwards() {
        var user = Accounts.verified("logout");
        var reply = user.api().post("/logout");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("message").asText()).isNotBlank();
        var after = user.api().get("/api/v1/users/me");
        assertThat(after.status()).isEqualTo(401);
        assertThat(after.code()).isEqualTo(40100);
        // the refresh token was not sent along, so it still works
        assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                .isEqualTo(200);
    }

    @Test
    void whenLoggingOutWithTheRefreshTokenThenItIsRevokedToo() {
        var user = Accounts.verified("logoutall");
        assertThat(user.api().post("/logout", Map.of("refresh_token", user.refreshToken())).status()).isEqualTo(200);
        assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                .isEqualTo(401);
    }

    @Test
    void whenALoggedOutTokenComesBackSpelledOtherwiseThenItIsRefusedToo() {
        var user = Accounts.verified("respelled");
        assertThat(user.api().post("/logout", Map.of("refresh_token", user.refreshToken())).status()).isEqualTo(200);
        // the signature's last character carries two unused bits: three other spellings decode to the same bytes
        for (String access : respellings(user.accessToken())) {
            var reply = Api.anonymous().withToken(access).get("/api/v1/users/me");
            assertThat(reply.status()).as(access).isEqualTo(401);
            assertThat(reply.code()).isEqualTo(40100);
        }
        for (String refresh : respellings(user.refreshToken())) {
            assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", refresh)).status()).as(refresh)
                    .isEqualTo(401);
        }
        // and a token never revoked is read in its own spelling only
        var other = Accounts.verified("respelledlive");
        assertThat(other.api().get("/api/v1/users/me").status()).isEqualTo(200);
        for (String access : respellings(other.accessToken())) {
            assertThat(Api.anonymous().withToken(access).get("/api/v1/users/me").status()).isEqualTo(401);
        }
    }

    /** The token with its signature's last character changed in its unused bits only. */
    private static List<String> respellings(String token) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        int unused = token.length() - token.lastIndexOf('.') - 1 == 43 ? 0x03 : 0;
        assertThat(unused).as("an HS256 signature is 43 characters").isEqualTo(0x03);
        String head = token.substring(0, token.length() - 1);
        int last = alphabet.indexOf(token.charAt(token.length() - 1));
        var out = new ArrayList<String>();
        for (int bits = 1; bits <= unused; bits++) {
            out.add(head + alphabet.charAt(last & ~unused | bits));
        }
        var decoder = Base64.getUrlDecoder();
        out.forEach(t -> assertThat(decoder.decode(t.substring(t.lastIndexOf('.') + 1)))
                .isEqualTo(decoder.decode(token.substring(token.lastIndexOf('.') + 1))));
        return out;
    }

    @Test
    void whenOnlyARefreshTokenIsSentToLogoutThenItIsRevoked() {
        var user = Accounts.verified("revoke");
        var api = Api.anonymous();
        assertThat(api.post("/logout", Map.of("refresh_token", user.refreshToken())).status()).isEqualTo(200);
        assertThat(api.post("/refresh", Map.of("refresh_token", user.refreshToken())).status()).isEqualTo(401);
        assertThat(api.post("/logout").status()).isEqualTo(401);
        var other = Accounts.verified("other");
        assertThat(other.api().post("/logout", Map.of("refresh_token", Accounts.verified("third").refreshToken()))
                .status()).isEqualTo(403);
    }

    @Test
    void whenFifteenMinutesPassThenTheAccessTokenExpires() {
        var user = Accounts.verified("expiring");
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofMinutes(14).plusSeconds(50));
            assertThat(user.api().get("/api/v1/users/me").status()).isEqualTo(200);
            clock.advance(Duration.ofSeconds(15));
            assertThat(user.api().get("/api/v1/users/me").status()).isEqualTo(401);
            assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                    .as("the refresh token lives 7 days").isEqualTo(200);
        }
    }

    @Test
    void whenSevenDaysPassThenTheRefreshTokenExpires() {
        var user = Accounts.verified("weekold");
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofDays(7).minusMinutes(1));
            assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                    .isEqualTo(200);
            clock.advance(Duration.ofMinutes(2));
            assertThat(Api.anonymous().post("/refresh", Map.of("refresh_token", user.refreshToken())).status())
                    .isEqualTo(401);
        }
    }

    @Test
    void whenTwentyFourHoursPassThenTheVerificationLinkExpires() {
        String email = Accounts.uniqueEmail("lateverify");
        var api = Api.anonymous();
        api.post("/register", Map.of("email", email, "username", "late", "password", "Passw0rdOK"));
        String link = Accounts.verificationPath(email);
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofHours(24).plusSeconds(1));
            assertThat(api.get(link).status()).isEqualTo(400);
        }
        assertThat(api.get(link).status()).isEqualTo(200);
    }
}
