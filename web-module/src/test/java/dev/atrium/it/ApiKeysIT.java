package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Spec 02's API keys: sk- credentials, one per user, only hashed at rest. */
@ExtendWith(AtriumServer.class)
class ApiKeysIT {

    @Test
    void whenAKeyIsIssuedThenItAuthenticatesAsTheUserAndReplacesThePreviousOne() {
        var user = Accounts.verified("keys");
        var first = user.api().post("/api-keys");
        assertThat(first.status()).isEqualTo(201);
        String key = first.json().get("api_key").asText();
        assertThat(key).matches("sk-[A-Za-z0-9_-]{43}");
        assertThat(first.header("Cache-Control")).isEqualTo("no-store");

        var withKey = Api.anonymous().withToken(key);
        var me = withKey.get("/api/v1/users/me");
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().get("id").asLong()).isEqualTo(user.id());
        assertThat(withKey.post("/api/chat/completions", Map.of("message", "via key")).status()).isEqualTo(200);

        String second = user.api().post("/api-keys").json().get("api_key").asText();
        assertThat(second).isNotEqualTo(key);
        assertThat(withKey.get("/api/v1/users/me").status()).as("the old key stopped working").isEqualTo(401);
        assertThat(Api.anonymous().withToken(second).get("/api/v1/users/me").status()).isEqualTo(200);
    }

    @Test
    void whenTheCredentialIsNeitherAKeyNorAJwtThen401() {
        var api = Api.anonymous();
        assertThat(api.withToken("sk-not-a-real-key").get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(api.withToken("xyz").get("/api/v1/users/me").status()).isEqualTo(401);
        assertThat(api.post("/api-keys").status()).isEqualTo(401);
    }

    @Test
    void whenCallingWithAKeyThenTheRateLimitCountsPerKey() {
        var user = Accounts.verified("keylimit");
        String key = user.api().post("/api-keys").json().get("api_key").asText();
        var byKey = Api.anonymous().withToken(key).get("/api/v1/articles");
        var byToken = user.api().get("/api/v1/articles");
        assertThat(Long.parseLong(byKey.header("X-RateLimit-Remaining")))
                .as("the key has its own bucket, apart from the user's token requests")
                .isGreaterThan(Long.parseLong(byToken.header("X-RateLimit-Remaining")) - 50);
        assertThat(byKey.header("X-RateLimit-Remaining")).isEqualTo("99");
    }
}
