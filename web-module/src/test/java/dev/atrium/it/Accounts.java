package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;

/** Registered, verified and logged-in users for tests, and the mails the platform sent them. */
public final class Accounts {

    public static final String PASSWORD = "Secret-Passw0rd";
    private static final Pattern VERIFY_LINK = Pattern.compile("https?://\\S+?(/verify-email\\?token=[\\w.-]+)");

    /** A user and an API client speaking with its access token. */
    public record Account(long id, String email, String username, String accessToken, String refreshToken,
                          Api api) {
    }

    private Accounts() {
    }

    public static String uniqueEmail(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8) + "@example.test";
    }

    public static Account verified() {
        return verified("user");
    }

    public static Account verified(String prefix) {
        Api api = Api.anonymous();
        String email = uniqueEmail(prefix);
        String username = prefix + "-" + email.substring(prefix.length() + 1, prefix.length() + 9);
        var registered = api.post("/register", Map.of("email", email, "username", username, "password", PASSWORD));
        assertThat(registered.status()).as(registered.toString()).isEqualTo(200);
        var verified = api.get(verificationPath(email));
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        return login(api, email, username);
    }

    public static Account admin() {
        return login(Api.anonymous(), AtriumServer.ADMIN_EMAIL, "admin");
    }

    public static Account login(Api api, String email, String username) {
        String password = email.equals(AtriumServer.ADMIN_EMAIL) ? AtriumServer.ADMIN_PASSWORD : PASSWORD;
        if (AtriumServer.get().sessionMode()) {
            // /login answers a cookie in session mode; tests that need a bearer take an SSO token instead
            var sso = api.post("/sso/login", Map.of("email", email, "password", password,
                    "redirect_url", AtriumServer.SSO_SERVICE));
            assertThat(sso.status()).as(sso.toString()).isEqualTo(200);
            String token = sso.json().get("token").asText();
            var me = api.withToken(token).get("/api/v1/users/me");
            return new Account(me.json().get("id").asLong(), email, me.json().get("username").asText(), token, null,
                    api.withToken(token));
        }
        var reply = api.post("/login", Map.of("email", email, "password", password));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        String token = reply.json().get("access_token").asText();
        var me = api.withToken(token).get("/api/v1/users/me");
        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        return new Account(me.json().get("id").asLong(), email, me.json().get("username").asText(), token,
                reply.json().get("refresh_token").asText(), api.withToken(token));
    }

    /** The path and query of the verification link mailed to this address, waiting for the mail to arrive. */
    public static String verificationPath(String email) {
        String text = awaitMail(email, "/verify-email", Duration.ofSeconds(30));
        var m = VERIFY_LINK.matcher(text);
        assertThat(m.find()).as("verification link in: " + text).isTrue();
        return m.group(1);
    }

    public static String awaitMail(String email, Duration timeout) {
        return awaitMail(email, "", timeout);
    }

    /** The text of the first mail to {@code email} containing {@code marker}, waiting for it to arrive. */
    public static String awaitMail(String email, String marker, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            var found = mails(email).stream().filter(text -> text.contains(marker)).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            sleep(100);
        }
        throw new AssertionError("No mail to " + email + " containing '" + marker + "' within " + timeout);
    }

    public static Optional<String> findMail(String email) {
        return mails(email).stream().findFirst();
    }

    /** The texts of all mails sent to {@code email} so far. */
    public static java.util.List<String> mails(String email) {
        var texts = new java.util.ArrayList<String>();
        try {
            var server = AtriumServer.get();
            if (server.embedded()) {
                Path outbox = server.dataDir().resolve("outbox");
                if (!Files.isDirectory(outbox)) {
                    return texts;
                }
                try (Stream<Path> files = Files.list(outbox)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".eml")).toList()) {
                        try (InputStream in = Files.newInputStream(file)) {
                            var message = new MimeMessage(Session.getInstance(new Properties()), in);
                            if (addressedTo(message, email)) {
                                texts.add(message.getContent().toString());
                            }
                        }
                    }
                }
                return texts;
            }
            for (MimeMessage message : server.smtp().getReceivedMessages()) {
                if (addressedTo(message, email)) {
                    texts.add(message.getContent().toString());
                }
            }
            return texts;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean addressedTo(MimeMessage message, String email) throws Exception {
        var to = message.getRecipients(Message.RecipientType.TO);
        return to != null && Stream.of(to).anyMatch(a -> a.toString().equalsIgnoreCase(email));
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
