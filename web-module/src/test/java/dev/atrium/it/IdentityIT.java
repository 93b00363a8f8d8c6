package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

@ExtendWith(AtriumServer.class)
class IdentityIT {

    private final Api api = Api.anonymous();

    @Test
    void whenRegisteringThenMessageAndInactiveAccountUntilVerified() {
        String email = Accounts.uniqueEmail("reg");
        var reply = api.post("/register", Map.of("email", email, "username", "reg", "password", "Passw0rdOK"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("message").asText()).isNotBlank();

        var beforeVerification = api.post("/login", Map.of("email", email, "password", "Passw0rdOK"));
        assertThat(beforeVerification.status()).isEqualTo(403);
        assertThat(beforeVerification.json().at("/error/message").asText()).contains("not verified");

        var verified = api.get(Accounts.verificationPath(email));
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        assertThat(api.post("/login", Map.of("email", email, "password", "Passw0rdOK")).status()).isEqualTo(200);
    }

    @Test
    void whenEmailAlreadyRegisteredInAnyCaseThen409With10001() {
        String email = Accounts.uniqueEmail("dup");
        assertThat(api.post("/register", Map.of("email", email, "username", "a", "password", "Passw0rdOK"))
                .status()).isEqualTo(200);
        var again = api.post("/register", Map.of("email", email.toUpperCase(), "username", "b",
                "password", "Passw0rdOK"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.code()).isEqualTo(10001);
    }

    @Test
    void whenPasswordBreaksThePolicyThen422NamingEachRule() {
        for (String weak : new String[] {"Sh0rt", "alllowercase1", "NoDigitsHere"}) {
            var reply = api.post("/register", Map.of("email", Accounts.uniqueEmail("weak"), "username", "w",
                    "password", weak));
            assertThat(reply.status()).as(weak).isEqualTo(422);
            assertThat(reply.code()).isEqualTo(40001);
            assertThat(reply.json().at("/error/details").asText()).startsWith("password:");
        }
    }

    @Test
    void whenRegistrationFieldsAreInvalidThen422ListingThem() {
        var reply = api.post("/register", Map.of("email", "not-an-email", "username", "", "password", "Passw0rdOK"));
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.json().at("/error/details").asText()).contains("email:").contains("username:");
    }

    @Test
    void whenCreatingUserThroughContentApiThen201WithUserResponse() {
        String email = Accounts.uniqueEmail("content");
        var reply = api.post("/api/v1/users", Map.of("email", email, "username", "writer", "password", "Passw0rdOK"));
        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.json().get("id").asLong()).isPositive();
        assertThat(reply.json().get("email").asText()).isEqualTo(email);
        assertThat(reply.json().get("username").asText()).isEqualTo("writer");
        assertThat(reply.json().has("hashed_password")).isFalse();
        assertThat(reply.body()).doesNotContain("Passw0rdOK").doesNotContain("argon2");
    }

    @Test
    void whenVerificationTokenIsBadOrOfAnotherTypeThen400() {
        assertThat(api.get("/verify-email?token=garbage").status()).isEqualTo(400);
        assertThat(api.get("/verify-email").status()).isEqualTo(400);
        var account = Accounts.verified("wrongtype");
        var withAccessToken = api.get("/verify-email?token=" + account.accessToken());
        assertThat(withAccessToken.status()).isEqualTo(400);
        var withRefreshToken = api.get("/verify-email?token=" + account.refreshToken());
        assertThat(withRefreshToken.status()).isEqualTo(400);
    }

    @Test
    void whenLoggingInThenAccessAndRefreshTokensWithTheSpecClaims() {
        var account = Accounts.verified("claims");
        var reply = api.post("/login", Map.of("email", account.email(), "password", Accounts.PASSWORD));
        assertThat(reply.json().get("token_type").asText()).isEqualTo("bearer");

        JsonNode accessHeader = part(reply.json().get("access_token").asText(), 0);
        JsonNode access = part(reply.json().get("access_token").asText(), 1);
        assertThat(accessHeader.get("alg").asText()).isEqualTo("HS256");
        assertThat(accessHeader.get("typ").asText()).isEqualTo("JWT");
        assertThat(accessHeader.get("kid").asText()).isNotBlank();
        assertThat(access.get("sub").isTextual()).isTrue();
        assertThat(access.get("sub").asText()).isEqualTo(Long.toString(account.id()));
        assertThat(access.get("role").asText()).isEqualTo("user");
        assertThat(access.get("type").asText()).isEqualTo("access");
        long accessLife = access.get("exp").asLong() - Instant.now().getEpochSecond();
        assertThat(accessLife).isBetween(800L, 900L);

        JsonNode refresh = part(reply.json().get("refresh_token").asText(), 1);
        assertThat(refresh.get("type").asText()).isEqualTo("refresh");
        assertThat(refresh.has("role")).isFalse();
        long refreshLife = refresh.get("exp").asLong() - Instant.now().getEpochSecond();
        assertThat(refreshLife).isBetween(7 * 86400L - 100, 7 * 86400L);
        assertThat(reply.body()).doesNotContain(Accounts.PASSWORD);
    }

    @Test
    void whenLoggingInWithFormOrQueryOrContentApiThenTokens() {
        var account = Accounts.verified("modes");
        var form = api.postForm("/login", Map.of("email", account.email(), "password", Accounts.PASSWORD));
        assertThat(form.status()).as(form.toString()).isEqualTo(200);
        assertThat(form.json().get("access_token").asText()).startsWith("ey");

        var query = api.post("/login?email=" + account.email() + "&password=" + Accounts.PASSWORD);
        assertThat(query.status()).as(query.toString()).isEqualTo(200);

        var content = api.post("/api/v1/auth/login", Map.of("email", account.email(), "password", Accounts.PASSWORD));
        assertThat(content.status()).isEqualTo(200);
        assertThat(content.json().get("refresh_token").asText()).startsWith("ey");
    }

    @Test
    void whenPasswordIsWrongOrUserUnknownThen401WithTheSameAnswer() {
        var account = Accounts.verified("wrong");
        var wrong = api.post("/login", Map.of("email", account.email(), "password", "Wrong-Passw0rd"));
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.code()).isEqualTo(10002);
        var unknown = api.post("/login", Map.of("email", Accounts.uniqueEmail("nobody"), "password", "Wrong-Passw0rd"));
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.json().get("error").get("message")).isEqualTo(wrong.json().get("error").get("message"));
    }

    @Test
    void whenCallingMeWithoutOrWithBadTokenThen401InTheEnvelope() {
        var none = api.get("/api/v1/users/me");
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.code()).isEqualTo(40100);
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer");

        var account = Accounts.verified("tamper");
        String[] parts = account.accessToken().split("\\.");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"sub\":\"1\",\"role\":\"admin\",\"type\":\"access\",\"exp\":4102444800}"
                        .getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThat(api.withToken(forged).get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(api.withToken(account.refreshToken()).get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(api.withToken("not-a-jwt").get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(api.header("Authorization", "Basic Zm9vOmJhcg==").get("/api/v1/users/me").status())
                .isEqualTo(401);
        String unsigned = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "." + parts[1] + ".";
        assertThat(api.withToken(unsigned).get("/api/v1/users/me").status()).isEqualTo(401);
    }

    @Test
    void whenReadingMeThenOwnProfileWithoutSecrets() {
        var account = Accounts.verified("me");
        var me = account.api().get("/api/v1/users/me");
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().get("id").asLong()).isEqualTo(account.id());
        assertThat(me.json().get("email").asText()).isEqualTo(account.email());
        assertThat(me.json().has("avatar")).isTrue();
        assertThat(me.json().get("avatar").isNull()).isTrue();
        assertThat(me.body()).doesNotContain("password");
    }

    @Test
    void whenPatchingMeThenOnlySentFieldsChangeAndNullClears() {
        var account = Accounts.verified("patch");
        var first = account.api().patch("/api/v1/users/me", Map.of("bio", "Writes about Jakarta EE",
                "avatar", "https://img.example.test/a.png"));
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.json().get("bio").asText()).isEqualTo("Writes about Jakarta EE");

        var second = account.api().patch("/api/v1/users/me", Map.of("username", "renamed"));
        assertThat(second.json().get("username").asText()).isEqualTo("renamed");
        assertThat(second.json().get("bio").asText()).isEqualTo("Writes about Jakarta EE");

        var clear = new HashMap<String, Object>();
        clear.put("avatar", null);
        var third = account.api().patch("/api/v1/users/me", clear);
        assertThat(third.json().get("avatar").isNull()).isTrue();
        assertThat(third.json().get("bio").asText()).isEqualTo("Writes about Jakarta EE");
        assertThat(third.json().get("username").asText()).isEqualTo("renamed");

        var blankName = account.api().patch("/api/v1/users/me", Map.of("username", ""));
        assertThat(blankName.status()).isEqualTo(422);
        var nullName = new HashMap<String, Object>();
        nullName.put("username", null);
        assertThat(account.api().patch("/api/v1/users/me", nullName).status()).isEqualTo(422);
        assertThat(account.api().patch("/api/v1/users/me", "[1,2]").status()).isEqualTo(422);
        assertThat(account.api().patch("/api/v1/users/me", "{oops").status()).isEqualTo(400);
    }

    @Test
    void whenAdministratorConfiguredThenItCanLogInWithTheAdminRole() {
        var admin = Accounts.admin();
        JsonNode claims = part(admin.accessToken(), 1);
        assertThat(claims.get("role").asText()).isEqualTo("admin");
    }

    static JsonNode part(String jwt, int index) {
        try {
            return Api.JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[index]));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
