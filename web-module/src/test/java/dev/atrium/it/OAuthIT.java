package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;

/**
 * External login against a real OAuth 2.0 / OpenID Connect server (mock-oauth2-server), driven as a browser would:
 * Atrium's redirect, the provider's authorization endpoint, and the provider's redirect back to the callback. Each
 * test uses its own subjects and e-mail addresses, since the server and database are shared by the whole run. The
 * claims of the next token are queued on the provider just before the callback that exchanges the code, and only
 * then, so that no queued claims are left for another test.
 */
@ExtendWith(AtriumServer.class)
class OAuthIT {

    private static final HttpClient BROWSER = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    private final Api api = Api.anonymous();

    @BeforeEach
    void onlyWithTheProvider() {
        assumeFalse(AtriumServer.get().embedded(), "the OAuth server runs in services mode only");
    }

    /** What the provider says about the user: subject, e-mail, whether verified, name. */
    private record Person(String subject, String email, Boolean emailVerified, String name) {

        static Person fresh(String prefix, Boolean verified) {
            String id = UUID.randomUUID().toString().substring(0, 8);
            return new Person(prefix + "-" + id, Accounts.uniqueEmail(prefix), verified, prefix + " " + id);
        }

        Person withEmail(String email) {
            return new Person(subject, email, emailVerified, name);
        }
    }

    @Test
    void whenFirstLoginThenActiveUserAndBindingAndTokensThatWork() {
        var person = Person.fresh("first", true);

        var reply = login(api, AtriumServer.OAUTH_PROVIDER, person);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("token_type").asText()).isEqualTo("bearer");
        assertThat(reply.json().get("refresh_token").asText()).isNotBlank();
        assertThat(reply.header("Cache-Control")).contains("no-store");
        var me = api.withToken(reply.json().get("access_token").asText()).get("/api/v1/users/me");
        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.json().get("email").asText()).isEqualTo(person.email());
        assertThat(me.json().get("username").asText()).isEqualTo(person.name());
        var bindings = api.withToken(reply.json().get("access_token").asText()).get("/me/oauth-accounts");
        assertThat(bindings.status()).as(bindings.toString()).isEqualTo(200);
        assertThat(bindings.json().get("total").asInt()).isEqualTo(1);
        JsonNode binding = bindings.json().get("items").get(0);
        assertThat(binding.get("provider").asText()).isEqualTo("mock");
        assertThat(binding.get("provider_user_id").asText()).isEqualTo(person.subject());
        assertThat(binding.get("created_at").asText()).endsWith("Z");
        assertThat(binding.get("id").asLong()).isPositive();

        var audit = Accounts.admin().api().get("/admin/audit-logs?action=oauth_login&user_id="
                + me.json().get("id").asLong());
        assertThat(audit.status()).as(audit.toString()).isEqualTo(200);
        assertThat(audit.json().get("total").asInt()).isEqualTo(1);
        assertThat(audit.json().get("items").get(0).get("success").asBoolean()).isTrue();
        assertThat(audit.json().get("items").get(0).get("ip_address").asText()).isEqualTo(api.address());
    }

    @Test
    void whenSameExternalAccountLogsInAgainThenSameUserEvenWithAnotherEmail() {
        var person = Person.fresh("again", null);
        long first = userId(login(api, AtriumServer.OAUTH_PROVIDER, person));

        long second = userId(login(api, AtriumServer.OAUTH_PROVIDER,
                person.withEmail(Accounts.uniqueEmail("again-changed"))));

        assertThat(second).isEqualTo(first);
    }

    @Test
    void whenVerifiedEmailBelongsToLocalUserThenLinkedToThatUser() {
        var local = Accounts.verified("local");
        var person = Person.fresh("local", true).withEmail(local.email());

        var reply = login(api, AtriumServer.OAUTH_PROVIDER, person);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(userId(reply)).isEqualTo(local.id());
        var bindings = local.api().get("/me/oauth-accounts").json();
        assertThat(bindings.get("total").asInt()).isEqualTo(1);
        // a user with a password may remove the only binding: the password still logs in
        var removed = local.api().delete("/me/oauth-accounts/" + bindings.get("items").get(0).get("id").asLong());
        assertThat(removed.status()).as(removed.toString()).isEqualTo(204);
        assertThat(Api.anonymous().post("/login", Map.of("email", local.email(), "password", Accounts.PASSWORD))
                .status()).isEqualTo(200);
    }

    @Test
    void whenADeactivatedUserLogsInThroughAProviderThen403AndItStaysDeactivated() {
        var local = Accounts.verified("oauth-off");
        var admin = Accounts.admin();
        var person = Person.fresh("oauth-off", true).withEmail(local.email());
        assertThat(login(api, AtriumServer.OAUTH_PROVIDER, person).status()).isEqualTo(200);
        assertThat(admin.api().patch("/admin/users/" + local.id(), Map.of("is_active", false)).status())
                .isEqualTo(200);

        var bound = login(api, AtriumServer.OAUTH_PROVIDER, person);
        assertThat(bound.status()).as(bound.toString()).isEqualTo(403);
        assertThat(bound.code()).isEqualTo(10005);

        var other = Person.fresh("oauth-off-b", true).withEmail(local.email());
        var byEmail = login(api, AtriumServer.OAUTH_PROVIDER, other);
        assertThat(byEmail.status()).as("a provider vouching for the address").isEqualTo(403);
        assertThat(byEmail.code()).isEqualTo(10005);
        assertThat(admin.api().get("/admin/users/" + local.id()).json().get("is_active").asBoolean()).isFalse();
    }

    @Test
    void whenUnverifiedEmailBelongsToLocalUserThen409AndNoBinding() {
        var local = Accounts.verified("claimed");
        var person = Person.fresh("claimed", false).withEmail(local.email());

        var reply = login(api, AtriumServer.OAUTH_PROVIDER, person);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.code()).isEqualTo(40900);
        assertThat(reply.json().at("/error/message").asText()).contains("already exists").contains("link");
        assertThat(local.api().get("/me/oauth-accounts").json().get("total").asInt()).isZero();
        var audit = Accounts.admin().api().get("/admin/audit-logs?action=oauth_login&success=false");
        assertThat(audit.json().get("total").asInt()).isPositive();
    }

    @Test
    void whenUnverifiedEmailIsNewThenUserCreated() {
        var person = Person.fresh("newcomer", false);

        var reply = login(api, AtriumServer.OAUTH_PROVIDER, person);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var me = api.withToken(reply.json().get("access_token").asText()).get("/api/v1/users/me").json();
        assertThat(me.get("email").asText()).isEqualTo(person.email());
    }

    @Test
    void whenStateIsReusedThen400() {
        var person = Person.fresh("reuse", true);
        String callback = authorize(api, AtriumServer.OAUTH_PROVIDER);
        queue(AtriumServer.OAUTH_PROVIDER, person);
        assertThat(api.get(callback).status()).isEqualTo(200);

        var again = api.get(callback);

        assertThat(again.status()).as(again.toString()).isEqualTo(400);
        assertThat(again.code()).isEqualTo(40000);
        assertThat(again.json().at("/error/message").asText()).contains("state");
    }

    @Test
    void whenStateIsUnknownOrMissingThen400() {
        var unknown = api.get("/auth/mock/callback?code=some-code&state=" + UUID.randomUUID());
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(400);
        assertThat(unknown.json().at("/error/message").asText()).contains("state");

        assertThat(api.get("/auth/mock/callback?code=some-code").status()).isEqualTo(400);
    }

    @Test
    void whenStateWasIssuedForAnotherProviderThen400() {
        String callback = authorize(api, AtriumServer.OAUTH_PROVIDER);
        var query = query(URI.create(AtriumServer.get().baseUrl() + callback));

        var reply = api.get("/auth/" + AtriumServer.OAUTH_SECOND_PROVIDER + "/callback?code="
                + query.get("code") + "&state=" + query.get("state"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
    }

    @Test
    void whenProviderIsUnknownThen404InTheEnvelope() {
        var start = api.get("/auth/nowhere");
        assertThat(start.status()).isEqualTo(404);
        assertThat(start.code()).isEqualTo(40400);
        assertThat(api.get("/auth/nowhere/callback?code=c&state=s").status()).isEqualTo(404);
    }

    @Test
    void whenProviderAnswersAccessDeniedThen400AndTheStateIsSpent() {
        var start = api.get("/auth/mock");
        String state = query(URI.create(start.header("Location"))).get("state");

        var denied = api.get("/auth/mock/callback?error=access_denied&state=" + state);

        assertThat(denied.status()).as(denied.toString()).isEqualTo(400);
        assertThat(denied.json().at("/error/details").asText()).isEqualTo("error: access_denied");
        assertThat(api.get("/auth/mock/callback?code=late&state=" + state).status()).isEqualTo(400);
    }

    @Test
    void whenLoginStartsThenRedirectCarriesConfiguredRedirectUriStatePkceAndNonce() {
        var start = api.get("/auth/mock");

        assertThat(start.status()).isEqualTo(303);
        assertThat(start.header("Cache-Control")).contains("no-store");
        URI location = URI.create(start.header("Location"));
        assertThat(location.toString()).startsWith(AtriumServer.get().oauth()
                .authorizationEndpointUrl(AtriumServer.OAUTH_PROVIDER).toString());
        var query = query(location);
        assertThat(query).containsEntry("client_id", AtriumServer.OAUTH_CLIENT_ID)
                .containsEntry("redirect_uri", AtriumServer.get().baseUrl() + "/auth/mock/callback")
                .containsEntry("response_type", "code")
                .containsEntry("scope", "openid email profile")
                .containsEntry("code_challenge_method", "S256");
        assertThat(query.get("state")).hasSizeGreaterThanOrEqualTo(43);
        assertThat(query.get("nonce")).hasSizeGreaterThanOrEqualTo(43);
        assertThat(query.get("code_challenge")).matches("[A-Za-z0-9_-]{43}");
        assertThat(query(URI.create(api.get("/auth/mock").header("Location"))).get("state"))
                .isNotEqualTo(query.get("state"));
    }

    @Test
    void whenRedirectUriDiffersFromTheConfiguredOneThen400() {
        String configured = AtriumServer.get().baseUrl() + "/auth/mock/callback";

        var other = api.get("/auth/mock?redirect_uri=" + encode("https://evil.example/auth/mock/callback"));
        var prefix = api.get("/auth/mock?redirect_uri=" + encode(configured + "/more"));
        var exact = api.get("/auth/mock?redirect_uri=" + encode(configured));

        assertThat(other.status()).as(other.toString()).isEqualTo(400);
        assertThat(prefix.status()).isEqualTo(400);
        assertThat(exact.status()).isEqualTo(303);
    }

    @Test
    void whenLinkingASecondProviderThenBothListedAndTheLastCannotBeRemoved() {
        var person = Person.fresh("linker", true);
        var tokens = login(api, AtriumServer.OAUTH_PROVIDER, person).json();
        var user = api.withToken(tokens.get("access_token").asText());
        long id = userId(user.get("/api/v1/users/me").json());

        var linked = login(user, AtriumServer.OAUTH_SECOND_PROVIDER, "?link=true",
                Person.fresh("linker-b", false));

        assertThat(linked.status()).as(linked.toString()).isEqualTo(200);
        assertThat(userId(linked)).isEqualTo(id);
        var bindings = user.get("/me/oauth-accounts?sort=provider").json();
        assertThat(bindings.get("total").asInt()).isEqualTo(2);
        assertThat(bindings.get("items").findValuesAsText("provider")).containsExactly("mock", "mock-b");
        long first = bindings.get("items").get(0).get("id").asLong();
        long second = bindings.get("items").get(1).get("id").asLong();

        assertThat(Accounts.verified("stranger").api().delete("/me/oauth-accounts/" + second).status())
                .isEqualTo(404);
        assertThat(user.delete("/me/oauth-accounts/" + second).status()).isEqualTo(204);
        var last = user.delete("/me/oauth-accounts/" + first);
        assertThat(last.status()).as(last.toString()).isEqualTo(409);
        assertThat(last.json().at("/error/message").asText()).contains("only way to log in");
        assertThat(user.get("/me/oauth-accounts").json().get("total").asInt()).isEqualTo(1);
        assertThat(user.delete("/me/oauth-accounts/" + second).status()).isEqualTo(404);

        var audit = Accounts.admin().api().get("/admin/audit-logs?action=oauth_unlink&user_id=" + id).json();
        assertThat(audit.get("total").asInt()).isEqualTo(2);
        assertThat(audit.get("items").findValuesAsText("success")).containsExactlyInAnyOrder("true", "false");
    }

    @Test
    void whenLinkingAnExternalAccountBoundToAnotherUserThen409() {
        var owner = Person.fresh("owner", true);
        assertThat(login(api, AtriumServer.OAUTH_SECOND_PROVIDER, owner).status()).isEqualTo(200);
        var other = Accounts.verified("other");

        var reply = login(other.api(), AtriumServer.OAUTH_SECOND_PROVIDER, "?link=true",
                owner.withEmail(other.email()));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.json().at("/error/message").asText()).contains("bound to another user");
        assertThat(other.api().get("/me/oauth-accounts").json().get("total").asInt()).isZero();
    }

    @Test
    void whenLinkIsAskedWithoutBeingLoggedInThen401() {
        var reply = api.get("/auth/mock?link=true");

        assertThat(reply.status()).isEqualTo(401);
    }

    @Test
    void whenListingWithoutBeingLoggedInThen401() {
        assertThat(api.get("/me/oauth-accounts").status()).isEqualTo(401);
        assertThat(api.delete("/me/oauth-accounts/1").status()).isEqualTo(401);
    }

    @Test
    void whenProviderIsPlainOAuthThenUserinfoNamesTheUser() {
        var person = Person.fresh("plain", true);

        var reply = login(api, "plain", person);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        var user = api.withToken(reply.json().get("access_token").asText());
        assertThat(user.get("/api/v1/users/me").json().get("email").asText()).isEqualTo(person.email());
        assertThat(user.get("/me/oauth-accounts").json().at("/items/0/provider_user_id").asText())
                .isEqualTo(person.subject());
    }

    @Test
    void whenTheCodeWasNotIssuedForThisRequestThenTheIdTokenNonceDoesNotMatchAnd400() {
        // the mock server answers tokens for any code, but without the nonce of this authorization request
        String state = query(URI.create(api.get("/auth/mock").header("Location"))).get("state");

        var reply = api.get("/auth/mock/callback?code=forged-code&state=" + state);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().at("/error/message").asText()).contains("ID token is not valid");
        assertThat(reply.json().at("/error/details").asText()).isEqualTo("reason: nonce");
    }

    @Test
    void whenTheProviderIsUnreachableThen502InTheEnvelope() {
        var start = api.get("/auth/down");
        assertThat(start.status()).isEqualTo(303);
        String state = query(URI.create(start.header("Location"))).get("state");

        var reply = api.get("/auth/down/callback?code=some-code&state=" + state);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(502);
        assertThat(reply.code()).isEqualTo(50200);
        assertThat(reply.body()).doesNotContain("atrium-it-secret").doesNotContain("127.0.0.1");
    }

    // ---- the browser ----

    private static Reply login(Api api, String provider, Person person) {
        return login(api, provider, "", person);
    }

    /**
     * The whole flow: start (with the caller's token, if any), the provider's authorization endpoint, then the
     * callback with queued claims, which the browser reaches without the bearer token.
     */
    private static Reply login(Api api, String provider, String startQuery, Person person) {
        String callback = authorize(api, provider + startQuery);
        queue(provider, person);
        return api.withoutHeader("Authorization").get(callback);
    }

    /** Starts a login and follows the provider's redirect; answers the path and query of Atrium's callback. */
    private static String authorize(Api api, String providerAndQuery) {
        var start = api.get("/auth/" + providerAndQuery);
        assertThat(start.status()).as(start.toString()).isEqualTo(303);
        HttpResponse<Void> provider;
        try {
            provider = BROWSER.send(HttpRequest.newBuilder(URI.create(start.header("Location")))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(provider.statusCode()).isEqualTo(302);
        URI back = URI.create(provider.headers().firstValue("Location").orElseThrow());
        assertThat(back.toString()).startsWith(AtriumServer.get().baseUrl() + "/auth/");
        return back.getRawPath() + "?" + back.getRawQuery();
    }

    /** The claims of the provider's next token for this provider's issuer. */
    private static void queue(String provider, Person person) {
        var claims = new LinkedHashMap<String, Object>();
        claims.put("email", person.email());
        if (person.emailVerified() != null) {
            claims.put("email_verified", person.emailVerified());
        }
        claims.put("name", person.name());
        AtriumServer.get().oauth().enqueueCallback(new DefaultOAuth2TokenCallback(provider, person.subject(), "JWT",
                List.of(AtriumServer.OAUTH_CLIENT_ID), claims, 3600));
    }

    private static long userId(Reply tokens) {
        assertThat(tokens.status()).as(tokens.toString()).isEqualTo(200);
        var me = Api.anonymous().withToken(tokens.json().get("access_token").asText()).get("/api/v1/users/me");
        return userId(me.json());
    }

    private static long userId(JsonNode me) {
        return me.get("id").asLong();
    }

    private static Map<String, String> query(URI uri) {
        var params = new LinkedHashMap<String, String>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    private static String encode(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
