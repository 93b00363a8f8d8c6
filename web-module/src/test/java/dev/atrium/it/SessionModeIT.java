package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Session mode ({@code ATRIUM_LOGIN_MODE=session}), on a server of its own: the session cookie, CSRF protection of
 * cookie-authenticated changes, logout, expiry and binding.
 */
@ExtendWith(AtriumServer.class)
class SessionModeIT {

    private static final Pattern SESSION = Pattern.compile("session_id=([^;]*)");
    private static final Pattern UUID_V4 =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

    private Api api;
    private String email;

    @BeforeEach
    void registerAndVerify() {
        api = Api.anonymous().header("User-Agent", "session-test/1.0");
        email = Accounts.uniqueEmail("session");
        assertThat(api.post("/register", Map.of("email", email, "username", "sess", "password", Accounts.PASSWORD))
                .status()).isEqualTo(200);
        assertThat(api.get(Accounts.verificationPath(email)).status()).isEqualTo(200);
    }

    private String login(Api from) {
        var reply = from.post("/login", Map.of("email", email, "password", Accounts.PASSWORD));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().get("message").asText()).isNotBlank();
        assertThat(reply.json().has("access_token")).isFalse();
        var m = SESSION.matcher(reply.header("Set-Cookie"));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private Api withSession(String id) {
        return api.header("Cookie", "session_id=" + id);
    }

    private String csrf(Api session) {
        var reply = session.get("/csrf-token");
        assertThat(reply.status()).isEqualTo(200);
        return reply.json().get("csrf_token").asText();
    }

    @Test
    void whenLoggingInThenASecureSessionCookieWithANewIdEachTime() {
        var reply = api.post("/login", Map.of("email", email, "password", Accounts.PASSWORD));
        String cookie = reply.header("Set-Cookie");
        assertThat(cookie).contains("HttpOnly").contains("Secure").containsIgnoringCase("SameSite=Lax")
                .contains("Max-Age=86400").contains("Path=/");
        var m = SESSION.matcher(cookie);
        assertThat(m.find()).isTrue();
        String first = m.group(1);
        assertThat(first).matches(UUID_V4.pattern());

        String second = login(withSession(first));
        assertThat(second).isNotEqualTo(first);
        assertThat(withSession(first).get("/api/v1/users/me").status()).as("the old session ended").isEqualTo(401);
        assertThat(withSession(second).get("/api/v1/users/me").status()).isEqualTo(200);
    }

    @Test
    void whenACookieRequestChangesStateThenItNeedsAFreshCsrfToken() {
        var session = withSession(login(api));
        var article = Map.of("title", "Cookie article", "body", "Body");
        var without = session.post("/api/v1/articles", article);
        assertThat(without.status()).isEqualTo(403);
        assertThat(without.code()).isEqualTo(40300);

        String token = csrf(session);
        assertThat(token).matches("[A-Za-z0-9_-]{43}");
        assertThat(session.header("X-CSRF-Token", token).post("/api/v1/articles", article).status()).isEqualTo(201);
        assertThat(session.header("X-CSRF-Token", token).post("/api/v1/articles", article).status())
                .as("single use").isEqualTo(403);
        assertThat(session.header("X-CSRF-Token", "made-up").post("/api/v1/articles", article).status())
                .isEqualTo(403);
        assertThat(session.get("/api/v1/users/me").status()).as("reads need no token").isEqualTo(200);

        String otherSession = login(Api.anonymous().header("User-Agent", "session-test/1.0"));
        String foreign = csrf(Api.anonymous().header("User-Agent", "session-test/1.0")
                .header("Cookie", "session_id=" + otherSession));
        assertThat(session.header("X-CSRF-Token", foreign).post("/api/v1/articles", article).status())
                .as("bound to another session").isEqualTo(403);
    }

    @Test
    void whenACsrfTokenWasObtainedWithoutTheSessionThenTheSessionRefusesIt() {
        var article = Map.of("title", "Bound", "body", "b");
        var session = withSession(login(api));
        String anonymous = csrf(api);
        var refused = session.header("X-CSRF-Token", anonymous).post("/api/v1/articles", article);
        assertThat(refused.status()).as("a token issued without a session").isEqualTo(403);
        assertThat(refused.code()).isEqualTo(40300);

        String earlier = csrf(session);
        var renewed = withSession(login(session));
        assertThat(renewed.header("X-CSRF-Token", earlier).post("/api/v1/articles", article).status())
                .as("a token of the session the login replaced").isEqualTo(403);
        String forged = csrf(api.header("Cookie", "session_id=00000000-0000-4000-8000-000000000000"));
        assertThat(renewed.header("X-CSRF-Token", forged).post("/api/v1/articles", article).status())
                .as("a token obtained with a made-up session id").isEqualTo(403);
        assertThat(renewed.header("X-CSRF-Token", csrf(renewed)).post("/api/v1/articles", article).status())
                .isEqualTo(201);
    }

    @Test
    void whenHttpsIsRequiredThenAPlainHttpGetIsRedirectedAndAChangeRefused() {
        var plain = api.withoutHeader("X-Forwarded-Proto");
        var get = plain.get("/api/v1/articles?page=1&page_size=5");
        assertThat(get.status()).as(get.toString()).isEqualTo(308);
        assertThat(get.header("Location")).as("the configured base URL's host, on the HTTPS port")
                .isEqualTo("https://" + URI.create(AtriumServer.get().baseUrl()).getHost()
                        + ":8443/api/v1/articles?page=1&page_size=5");
        assertThat(get.header("Strict-Transport-Security")).contains("max-age=31536000");

        var post = plain.post("/login", Map.of("email", email, "password", Accounts.PASSWORD));
        assertThat(post.status()).as(post.toString()).isEqualTo(403);
        assertThat(post.code()).isEqualTo(40300);
        assertThat(post.json().at("/error/message").asText()).isEqualTo("HTTPS required");
        assertThat(post.header("Set-Cookie")).as("no session over plain HTTP").isNull();
        assertThat(plain.header("X-Forwarded-Proto", "http").post("/logout").status()).isEqualTo(403);

        assertThat(plain.get("/health").status()).as("load-balancer probes").isIn(200, 503);
        var loopback = plain.withoutHeader("X-Forwarded-For").get("/api/v1/articles");
        assertThat(loopback.status()).as("loopback is exempt").isEqualTo(200);
        assertThat(api.get("/api/v1/articles").status()).as("through the TLS proxy").isEqualTo(200);
    }

    @Test
    void whenAClientThatIsNoTrustedProxyClaimsHttpsThenItIsStillRedirected() throws Exception {
        var address = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (java.net.SocketException e) {
                        return false;
                    }
                })
                .flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
                .filter(a -> a instanceof java.net.Inet4Address && !a.isLoopbackAddress()).findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(address.isPresent(), "a non-loopback interface");
        var client = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build();
        URI uri = URI.create("http://" + address.get().getHostAddress() + ":"
                + URI.create(AtriumServer.get().baseUrl()).getPort() + "/api/v1/articles");
        var claimed = client.send(java.net.http.HttpRequest.newBuilder(uri).header("X-Forwarded-Proto", "https")
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(claimed.statusCode()).isEqualTo(308);
        var post = client.send(java.net.http.HttpRequest.newBuilder(uri).header("X-Forwarded-Proto", "https")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(403);
    }

    @Test
    void whenTheRequestIsHttpsThenTheFormCookieIsSecureAndOverLoopbackHttpItIsNot() {
        String path = "/sso/login?service=" + AtriumServer.SSO_SERVICE;
        var overHttps = api.header("Accept", "text/html").get(path);
        assertThat(overHttps.status()).as(overHttps.toString()).isEqualTo(200);
        assertThat(overHttps.header("Set-Cookie")).startsWith("sso_form=").contains("Secure");
        var local = api.withoutHeader("X-Forwarded-Proto").withoutHeader("X-Forwarded-For")
                .header("Accept", "text/html").get(path);
        assertThat(local.status()).isEqualTo(200);
        assertThat(local.header("Set-Cookie")).startsWith("sso_form=").doesNotContain("Secure");
    }

    @Test
    void whenAnHourPassesThenTheCsrfTokenExpires() {
        var session = withSession(login(api));
        String token = csrf(session);
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(3601));
            assertThat(session.header("X-CSRF-Token", token).post("/api/v1/articles",
                    Map.of("title", "Late", "body", "b")).status()).isEqualTo(403);
        }
    }

    @Test
    void whenABearerTokenIsUsedThenNoCsrfTokenIsNeeded() {
        var sso = api.post("/sso/login", Map.of("email", email, "password", Accounts.PASSWORD,
                "redirect_url", AtriumServer.SSO_SERVICE));
        assertThat(sso.status()).as(sso.toString()).isEqualTo(200);
        var bearer = api.withToken(sso.json().get("token").asText());
        assertThat(bearer.post("/api/v1/articles", Map.of("title", "Bearer", "body", "b")).status()).isEqualTo(201);
    }

    @Test
    void whenACookieSessionInvokesAnAgentThenItNeedsACsrfTokenAndNothingIsChargedWithoutOne() {
        String agent = InvokeFixtures.listed(MarketplaceFixtures.staff(), InvokeFixtures.pythonCard("session"),
                InvokeFixtures.PYTHON_ECHO).id();
        var session = withSession(login(api));
        var input = Map.of("text", "hello");

        var without = session.post("/v1/agents/" + agent + "/invoke", input);

        assertThat(without.status()).as(without.toString()).isEqualTo(403);
        assertThat(without.code()).isEqualTo(40300);
        assertThat(without.header("Atrium-Run-Id")).isNull();
        assertThat(session.get("/v1/me/usage").json().get("total").asLong()).as("no call recorded").isZero();
        var balance = session.get("/v1/me/balance").json();
        assertThat(balance.get("balance").decimalValue()).isEqualByComparingTo(AtriumServer.SIGNUP_CREDIT);
        assertThat(balance.get("held").decimalValue()).isZero();

        var with = session.header("X-CSRF-Token", csrf(session)).post("/v1/agents/" + agent + "/invoke", input);

        assertThat(with.status()).as(with.toString()).isEqualTo(200);
        assertThat(with.json().get("result").asText()).isEqualTo("hello");
        assertThat(with.header("Atrium-Run-Id")).isNotBlank();
        assertThat(session.get("/v1/me/usage").json().get("total").asLong()).isEqualTo(1);
    }

    @Test
    void whenLoggingOutThenTheSessionEndsAtOnceAndTheCookieIsCleared() {
        var session = withSession(login(api));
        assertThat(session.post("/logout").status()).as("logout changes state: CSRF").isEqualTo(403);
        var out = session.header("X-CSRF-Token", csrf(session)).post("/logout");
        assertThat(out.status()).isEqualTo(200);
        assertThat(out.header("Set-Cookie")).contains("session_id=").contains("Max-Age=0");
        assertThat(session.get("/api/v1/users/me").status()).isEqualTo(401);
    }

    @Test
    void whenADayPassesThenTheSessionExpires() {
        var session = withSession(login(api));
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(86400 - 60));
            assertThat(session.get("/api/v1/users/me").status()).isEqualTo(200);
            clock.advance(Duration.ofSeconds(61));
            assertThat(session.get("/api/v1/users/me").status()).isEqualTo(401);
        }
    }

    @Test
    void whenTheSessionIsUsedFromAnotherUserAgentThenItIsNotAccepted() {
        String id = login(api);
        assertThat(Api.anonymous().header("User-Agent", "another-browser/2.0").header("Cookie", "session_id=" + id)
                .get("/api/v1/users/me").status()).isEqualTo(401);
    }

    @Test
    void whenTheChatWebSocketIsOpenedWithOnlyTheSessionCookieThenTheHandshakeIs401() throws Exception {
        // a browser sends the cookie along on any site's WebSocket to us: the socket takes only a token
        String id = login(api);
        var me = withSession(id).get("/api/v1/users/me");
        assertThat(me.status()).isEqualTo(200);
        var reply = WebSocketHandshake.sendWithHeaders("/ws/chat/" + me.json().get("id").asText(), Map.of("Cookie",
                "session_id=" + id, "User-Agent", "session-test/1.0", "Origin", "https://evil.example"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(401);
        assertThat(reply.code()).isEqualTo(40100);
    }

    @Test
    void whenThePasswordIsResetThenEverySessionEnds() {
        var session = withSession(login(api));
        // the revocation must fall in a later second than the credentials' issue: move the server clock, not wait
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(2));
            api.post("/password/forgot", Map.of("email", email));
            String token = waitForResetToken();
            assertThat(api.post("/password/reset", Map.of("token", token, "new_password", "Reset-Passw0rd")).status())
                    .isEqualTo(200);
            assertThat(session.get("/api/v1/users/me").status()).isEqualTo(401);
        }
    }

    @Test
    void whenLoggedInWithASessionThenTheTicketFlowRedirectsWithATicket() {
        var session = withSession(login(api));
        var redirect = session.get("/sso/login?service=" + AtriumServer.SSO_SERVICE);
        assertThat(redirect.status()).isEqualTo(303);
        String ticket = URI.create(redirect.header("Location")).getQuery().substring("ticket=".length());
        var user = Api.anonymous().get("/sso/validate?ticket=" + ticket + "&service=" + AtriumServer.SSO_SERVICE);
        assertThat(user.status()).isEqualTo(200);
        assertThat(user.json().get("email").asText()).isEqualTo(email);
    }

    private String waitForResetToken() {
        var m = Pattern.compile("/password/reset\\?token=([\\w-]+)")
                .matcher(Accounts.awaitMail(email, "/password/reset", Duration.ofSeconds(30)));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
