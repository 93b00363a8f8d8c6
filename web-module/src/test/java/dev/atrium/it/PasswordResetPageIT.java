package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
 * The reset link of the real mail works in a browser: it opens a form (no script), which posts back as a form and
 * sets the password.
 */
@ExtendWith(AtriumServer.class)
class PasswordResetPageIT {

    private static final Pattern LINK = Pattern.compile("(https?://\\S+/password/reset\\?token=[\\w-]+)");
    private static final Pattern FORM = Pattern.compile("<form method=\"post\" action=\"([^\"]+)\"");
    private static final Pattern HIDDEN =
            Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\"");
    private static final HttpClient BROWSER = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> browse(HttpRequest.Builder request) {
        try {
            return BROWSER.send(request.header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
                    .header("X-Forwarded-For", Api.anonymous().address()).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> get(URI uri) {
        return browse(HttpRequest.newBuilder(uri).GET());
    }

    private static HttpResponse<String> submit(URI uri, Map<String, String> fields) {
        String body = fields.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return browse(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static URI mailedLink(String email) {
        Api.anonymous().post("/password/forgot", Map.of("email", email));
        var m = LINK.matcher(Accounts.awaitMail(email, "/password/reset", Duration.ofSeconds(30)));
        assertThat(m.find()).isTrue();
        return URI.create(m.group(1));
    }

    /** The form's hidden fields, as a browser would send them back, and where it posts to. */
    private record Form(URI action, Map<String, String> fields) {

        static Form of(URI page, String html) {
            var action = FORM.matcher(html);
            assertThat(action.find()).as(html).isTrue();
            var fields = new LinkedHashMap<String, String>();
            var hidden = HIDDEN.matcher(html);
            while (hidden.find()) {
                fields.put(hidden.group(1), hidden.group(2));
            }
            return new Form(page.resolve(action.group(1)), fields);
        }

        Map<String, String> with(String password, String again) {
            var all = new LinkedHashMap<>(fields);
            all.put("new_password", password);
            all.put("confirm_password", again);
            return all;
        }
    }

    @Test
    void whenFollowingTheMailedLinkThenTheFormSetsTheNewPassword() {
        var user = Accounts.verified("reset-page");
        URI link = mailedLink(user.email());

        var page = get(link);
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElse("")).contains("script-src 'self'");
        assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        assertThat(page.headers().firstValue("Cache-Control").orElse("")).contains("no-store");
        assertThat(page.body()).doesNotContain("<script");
        var form = Form.of(link, page.body());
        assertThat(form.action().getPath()).isEqualTo("/password/reset");

        var differs = submit(form.action(), form.with("Page-Passw0rd", "Other-Passw0rd"));
        assertThat(differs.statusCode()).isEqualTo(400);
        assertThat(differs.body()).contains("differ");
        var weak = submit(form.action(), form.with("weak", "weak"));
        assertThat(weak.statusCode()).isEqualTo(400);
        assertThat(weak.body()).contains("<form").contains("class=\"error\"");

        // revocation is kept in whole seconds, like iat: the reset must fall in a later second than the tokens
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(2));
            var done = submit(form.action(), form.with("Page-Passw0rd", "Page-Passw0rd"));
            assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
            assertThat(done.body()).contains("Password changed");
            assertThat(Api.anonymous().post("/login", Map.of("email", user.email(), "password", "Page-Passw0rd"))
                    .status()).isEqualTo(200);
            assertThat(user.api().get("/api/v1/users/me").status()).as("earlier tokens ended").isEqualTo(401);

            var again = submit(form.action(), form.with("Again-Passw0rd", "Again-Passw0rd"));
            assertThat(again.statusCode()).as("the link works once").isEqualTo(400);
            assertThat(again.body()).contains("invalid, used or expired");
        }
    }

    @Test
    void whenTheLinkOrTheFormIsHostileThenA400PageThatReflectsNothing() {
        String base = AtriumServer.get().baseUrl();
        String good = "A".repeat(43);
        var queries = List.of("", "?token=", "?token=short", "?token=" + "A".repeat(44),
                "?token=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E", "?token=" + "A".repeat(42) + "%00",
                "?token=" + "x".repeat(5000), "?token=" + good + "&token=" + good);
        for (String query : queries) {
            var page = get(URI.create(base + "/password/reset" + query));
            if (query.equals("?token=" + good + "&token=" + good)) {
                assertThat(page.statusCode()).as(query).isEqualTo(200);
                continue;
            }
            assertThat(page.statusCode()).as(query).isEqualTo(400);
            assertThat(page.body()).as(query).doesNotContain("<script").doesNotContain("<form");
        }
        record Case(Map<String, String> form, String expect) {
        }
        var cases = List.of(
                new Case(Map.of(), "invalid"),
                new Case(Map.of("token", good), "at most 256"),
                new Case(Map.of("token", good, "new_password", "Unknown-Passw0rd", "confirm_password",
                        "Unknown-Passw0rd"), "invalid, used or expired"),
                new Case(Map.of("token", "\"><script>x</script>", "new_password", "A-Passw0rd",
                        "confirm_password", "A-Passw0rd"), "invalid"),
                new Case(Map.of("token", good, "new_password", "L0ng" + "x".repeat(300), "confirm_password",
                        "L0ng" + "x".repeat(300)), "at most 256"),
                new Case(Map.of("token", good, "new_password", "<b>Tag-Passw0rd", "confirm_password", "<i>"),
                        "differ"));
        for (var c : cases) {
            var reply = submit(URI.create(base + "/password/reset"), c.form());
            assertThat(reply.statusCode()).as(c.toString()).isEqualTo(400);
            assertThat(reply.body()).as(c.toString()).contains(c.expect()).doesNotContain("<script")
                    .doesNotContain("<b>").doesNotContain("<i>");
        }
    }

    @Test
    void whenTheFormGetsRandomBodiesThenNeverA5xx() {
        var random = new Random(8L);
        String alphabet = "aZ09-_=&%+;\"<>\u00e9\u0000\r\n";
        for (int i = 0; i < 60; i++) {
            var body = new StringBuilder();
            int length = random.nextInt(80);
            for (int j = 0; j < length; j++) {
                body.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            var reply = browse(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + "/password/reset"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
            assertThat(reply.statusCode()).as(body.toString()).isBetween(400, 499);
        }
    }
}
