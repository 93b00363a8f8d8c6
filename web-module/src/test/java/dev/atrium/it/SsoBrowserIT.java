package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The CAS-style ticket flow from a browser in token mode: a client that keeps cookies and follows redirects as a
 * browser does opens the SSO login for a service, gets the login form, posts it, and is sent on to the service
 * with a ticket that the service's backend validates.
 */
@ExtendWith(AtriumServer.class)
class SsoBrowserIT {

    private static final Pattern FORM = Pattern.compile("<form method=\"post\" action=\"([^\"]+)\"");
    private static final Pattern HIDDEN =
            Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\"");

    /** A browser: its own cookie jar and address; follows redirects only while they stay on the server. */
    private static final class Browser {
        final HttpClient client;
        final String address = Api.anonymous().address();

        Browser() {
            client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                    .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
        }

        HttpResponse<String> open(URI uri) {
            return follow(send(HttpRequest.newBuilder(uri).GET()));
        }

        HttpResponse<String> submit(URI uri, Map<String, String> fields) {
            String body = fields.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                    + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
            return follow(send(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body))));
        }

        /** Follows 303s on this server with GET; stops at a redirect to another host (the service). */
        private HttpResponse<String> follow(HttpResponse<String> response) {
            int hops = 0;
            while (response.statusCode() == 303 && hops++ < 5) {
                URI next = response.uri().resolve(response.headers().firstValue("Location").orElseThrow());
                if (!next.getHost().equals(response.uri().getHost())) {
                    return response;
                }
                response = send(HttpRequest.newBuilder(next).GET());
            }
            return response;
        }

        private HttpResponse<String> send(HttpRequest.Builder request) {
            try {
                return client.send(request.header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
                        .header("X-Forwarded-For", address).build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private record Form(URI action, Map<String, String> fields) {

        static Form of(URI page, String html) {
            var action = FORM.matcher(html);
            assertThat(action.find()).as(html).isTrue();
            var fields = new LinkedHashMap<String, String>();
            var hidden = HIDDEN.matcher(html);
            while (hidden.find()) {
                fields.put(hidden.group(1), hidden.group(2).replace("&amp;", "&").replace("&quot;", "\"")
                        .replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'"));
            }
            return new Form(page.resolve(action.group(1)), fields);
        }

        Map<String, String> with(String email, String password) {
            var all = new LinkedHashMap<>(fields);
            all.put("email", email);
            all.put("password", password);
            return all;
        }
    }

    private static URI start() {
        return URI.create(AtriumServer.get().baseUrl() + "/sso/login?service="
                + URLEncoder.encode(AtriumServer.SSO_SERVICE, StandardCharsets.UTF_8));
    }

    @Test
    void whenABrowserWithoutASessionOpensTheSsoLoginThenFormThenRedirectWithATicketThatValidates() {
        var user = Accounts.verified("sso-browser");
        var browser = new Browser();

        var page = browser.open(start());
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.body()).doesNotContain("<script");
        assertThat(page.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("sso_form=")
                .contains("HttpOnly").containsIgnoringCase("SameSite=Strict"));
        var form = Form.of(page.uri(), page.body());
        assertThat(form.fields()).containsEntry("service", AtriumServer.SSO_SERVICE).containsKey("csrf_token");

        var wrong = browser.submit(form.action(), form.with(user.email(), "Wrong-Passw0rd"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("Incorrect e-mail or password");
        form = Form.of(wrong.uri(), wrong.body());

        var done = browser.submit(form.action(), form.with(user.email(), Accounts.PASSWORD));
        assertThat(done.statusCode()).as(done.body()).isEqualTo(303);
        URI service = URI.create(done.headers().firstValue("Location").orElseThrow());
        assertThat(service.toString()).startsWith(AtriumServer.SSO_SERVICE + "?ticket=ST-");
        String ticket = service.getQuery().substring("ticket=".length());

        var validated = Api.anonymous().get("/sso/validate?ticket=" + ticket + "&service="
                + URLEncoder.encode(AtriumServer.SSO_SERVICE, StandardCharsets.UTF_8));
        assertThat(validated.status()).as(validated.toString()).isEqualTo(200);
        assertThat(validated.json().get("email").asText()).isEqualTo(user.email());
        assertThat(validated.json().get("id").asLong()).isEqualTo(user.id());

        var replay = browser.submit(form.action(), form.with(user.email(), Accounts.PASSWORD));
        assertThat(replay.statusCode()).as("the form's CSRF token works once").isEqualTo(403);
    }

    @Test
    void whenTheFormIsPostedWithoutItsTokenOrFromAnotherBrowserThen403AndNoTicket() {
        var user = Accounts.verified("sso-csrf");
        var victim = new Browser();
        var attacker = new Browser();
        var attackerForm = Form.of(start(), attacker.open(start()).body());
        victim.open(start());

        var foreign = victim.submit(attackerForm.action(), attackerForm.with(user.email(), Accounts.PASSWORD));
        assertThat(foreign.statusCode()).as("a token bound to another browser's cookie").isEqualTo(403);
        var without = new LinkedHashMap<>(attackerForm.with(user.email(), Accounts.PASSWORD));
        without.remove("csrf_token");
        assertThat(victim.submit(attackerForm.action(), without).statusCode()).isEqualTo(403);
        var noCookie = new Browser().submit(attackerForm.action(), attackerForm.with(user.email(),
                Accounts.PASSWORD));
        assertThat(noCookie.statusCode()).as("no form cookie").isEqualTo(403);
        assertThat(noCookie.headers().firstValue("Location")).isEmpty();
    }

    @Test
    void whenTheServiceIsNotAllowedThenNoLoginFormAndNoTicket() {
        var browser = new Browser();
        for (String service : List.of("https://evil.test/app", "javascript:alert(1)", "",
                AtriumServer.SSO_SERVICE + ".evil.test", "\"><script>alert(1)</script>")) {
            var page = browser.open(URI.create(AtriumServer.get().baseUrl() + "/sso/login?service="
                    + URLEncoder.encode(service, StandardCharsets.UTF_8)));
            assertThat(page.statusCode()).as(service).isEqualTo(400);
            assertThat(page.body()).as(service).doesNotContain("<form").doesNotContain("<script");
        }
        var user = Accounts.verified("sso-tamper");
        var form = Form.of(start(), browser.open(start()).body());
        var tampered = new LinkedHashMap<>(form.with(user.email(), Accounts.PASSWORD));
        tampered.put("service", "https://evil.test/app");
        var reply = browser.submit(form.action(), tampered);
        assertThat(reply.statusCode()).isEqualTo(400);
        assertThat(reply.headers().firstValue("Location")).isEmpty();
    }

    @Test
    void whenAnApiClientWithoutASessionAsksThenStill401AsJson() {
        var reply = Api.anonymous().get("/sso/login?service=" + AtriumServer.SSO_SERVICE);
        assertThat(reply.status()).isEqualTo(401);
        assertThat(reply.code()).isEqualTo(40100);
    }

    @Test
    void whenTheLoginFormGetsHostileOrRandomBodiesThenA4xxPageAndNeverATicket() {
        var browser = new Browser();
        var form = Form.of(start(), browser.open(start()).body());
        var cases = List.<Map<String, String>>of(
                Map.of(),
                Map.of("service", AtriumServer.SSO_SERVICE),
                form.with("", ""),
                form.with("x".repeat(400) + "@x.test", "p"),
                form.with("a@b.test", "p".repeat(300)),
                form.with("' OR 1=1 --", "' OR 1=1 --"));
        for (var fields : cases) {
            var fresh = Form.of(start(), browser.open(start()).body());
            var body = new LinkedHashMap<>(fields);
            if (body.containsKey("csrf_token")) {
                body.put("csrf_token", fresh.fields().get("csrf_token"));
            }
            var reply = browser.submit(form.action(), body);
            assertThat(reply.statusCode()).as(fields.toString()).isBetween(400, 499);
            assertThat(reply.headers().firstValue("Location")).as(fields.toString()).isEmpty();
        }
        var random = new Random(55L);
        String alphabet = "aZ09-_=&%+;\"<>@.\u00e9\u0000\r\n";
        for (int i = 0; i < 50; i++) {
            var text = new StringBuilder();
            int length = random.nextInt(100);
            for (int j = 0; j < length; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            HttpResponse<String> reply = browser.send(HttpRequest.newBuilder(form.action())
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(text.toString())));
            assertThat(reply.statusCode()).as(text.toString()).isBetween(400, 499);
        }
    }
}
