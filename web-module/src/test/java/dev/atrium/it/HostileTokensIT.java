package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;

/**
 * Issue 8: tokens that are not ours never reach a 500. A table of hostile tokens (foreign, forged, malformed,
 * expired, wrong type, oversized, odd headers and claims signed with our own key) is sent to every path that reads
 * a token, the chat WebSocket's handshake included; each answers its 4xx in the error envelope, and the server log gets
 * no SEVERE line and never the token. Tokens with odd claims are signed with the test server's secret so that they
 * get past the signature to the claim checks.
 */
@ExtendWith(AtriumServer.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileTokensIT {

    private static final String SECRET = "integration-tests-secret-0123456789abcdef";
    private static final byte[] FOREIGN = "someone-elses-secret-0123456789abcdefgh".getBytes(StandardCharsets.UTF_8);
    private static final HttpClient WS = HttpClient.newHttpClient();

    /** The paths that read a token, and what each answers a bad one. */
    enum Reader { ME_PERMISSIONS, CHAT, SSO_LOGIN, LOGOUT_BEARER, REFRESH, LOGOUT_REFRESH, VERIFY_EMAIL, PASSWORD_RESET,
        SSO_VALIDATE, WS_QUERY, WS_HEADER }

    private static final Set<Reader> BEARER = EnumSet.of(Reader.ME_PERMISSIONS, Reader.CHAT, Reader.SSO_LOGIN,
            Reader.LOGOUT_BEARER, Reader.WS_QUERY, Reader.WS_HEADER);
    private static final Set<Reader> IN_HEADER_OR_URL = EnumSet.of(Reader.ME_PERMISSIONS, Reader.CHAT,
            Reader.SSO_LOGIN, Reader.LOGOUT_BEARER, Reader.VERIFY_EMAIL, Reader.SSO_VALIDATE, Reader.WS_QUERY,
            Reader.WS_HEADER);

    /** A hostile token, and the readers for which it would be a good one (not sent there). */
    record Hostile(String name, String token, Set<Reader> goodAt) {
    }

    private static final List<Hostile> TOKENS = new ArrayList<>();
    private static Accounts.Account user;
    private static long logLinesBefore;
    private static long httpLogLines;

    @BeforeAll
    static void tokens() throws Exception {
        assumeFalse(AtriumServer.get().embedded());
        logLinesBefore = Files.readAllLines(AtriumServer.get().serverLog(), StandardCharsets.ISO_8859_1).size();
        user = Accounts.verified("hostile");
        var revoked = Accounts.verified("hostileout");
        assertThat(revoked.api().post("/logout").status()).isEqualTo(200);
        String verifyToken = Accounts.verificationPath(user.email()).replaceAll(".*token=", "");
        String sso = Api.anonymous().post("/sso/login", Map.of("email", user.email(), "password", Accounts.PASSWORD,
                "redirect_url", AtriumServer.SSO_SERVICE)).json().get("token").asText();
        var jwks = Api.anonymous().get("/.well-known/jwks.json").json().get("keys").get(0);
        String rsaKid = jwks.get("kid").asText();
        String kid = "hs-" + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(SECRET.getBytes(StandardCharsets.UTF_8)))
                .substring(0, 12);
        byte[] ours = SECRET.getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        String header = "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"" + kid + "\"}";
        String access = "{\"sub\":\"" + user.id() + "\",\"type\":\"access\",\"role\":\"admin\",\"exp\":" + (now + 600)
                + "}";
        Function<String, String> claimsOfUser = extra -> "{\"sub\":\"" + user.id() + "\"," + extra + "}";

        // the control: forged with the server's own secret and claims it accepts, so the ones below reach the checks
        String control = hs256(header, access, ours);
        assertThat(Api.anonymous().withToken(control).get("/me/permissions").status()).isEqualTo(200);

        var rsa = new RSAKeyGenerator(2048).keyID(rsaKid).generate();
        add("garbage", "garbage");
        add("ey prefix only", "eyJ");
        add("three dots", "...");
        add("empty segments", "ey..");
        add("five segments (JWE shape)", "eyA.eyB.eyC.eyD.eyE");
        add("header JSON cut short", b64("{\"alg\":\"HS256\",") + "." + b64(access) + ".c2ln");
        add("no kid, another secret (issue 8)", hs256("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", access, FOREIGN));
        add("no kid, our secret", hs256("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", access, ours));
        add("kid null", hs256("{\"alg\":\"HS256\",\"kid\":null}", access, ours));
        add("kid a number", hs256("{\"alg\":\"HS256\",\"kid\":42}", access, ours));
        add("unknown kid", hs256("{\"alg\":\"HS256\",\"kid\":\"hs-unknown\"}", access, ours));
        add("our kid, another secret", hs256(header, access, FOREIGN));
        add("alg none", b64("{\"alg\":\"none\",\"kid\":\"" + kid + "\"}") + "." + b64(access) + ".");
        add("alg none, two segments", b64("{\"alg\":\"none\"}") + "." + b64(access));
        add("alg HS512", mac("HmacSHA512", "{\"alg\":\"HS512\",\"kid\":\"" + kid + "\"}", access, ours));
        add("HS256 keyed with the RSA public JWK, RSA kid", hs256("{\"alg\":\"HS256\",\"kid\":\"" + rsaKid + "\"}",
                access, jwks.toString().getBytes(StandardCharsets.UTF_8)));
        add("HS256 keyed with the RSA public JWK, our kid", hs256(header, access,
                jwks.toString().getBytes(StandardCharsets.UTF_8)));
        add("RS256 with an unknown kid", rs256("{\"alg\":\"RS256\",\"kid\":\"rs-unknown\"}", access, rsa));
        add("RS256 by another key under our kid", rs256("{\"alg\":\"RS256\",\"kid\":\"" + rsaKid + "\"}", access,
                rsa));
        add("crit header", hs256("{\"alg\":\"HS256\",\"kid\":\"" + kid + "\",\"crit\":[\"exp\"],\"exp\":1}", access,
                ours));
        add("typ not JWT", hs256("{\"alg\":\"HS256\",\"typ\":\"JWE\",\"kid\":\"" + kid + "\"}", access, ours));
        add("tampered payload", control.substring(0, control.indexOf('.') + 1)
                + b64(access.replace("admin", "root")) + control.substring(control.lastIndexOf('.')));
        add("expired", hs256(header, claimsOfUser.apply("\"type\":\"access\",\"exp\":" + (now - 60)), ours));
        add("no exp", hs256(header, claimsOfUser.apply("\"type\":\"access\""), ours));
        add("exp a string", hs256(header, claimsOfUser.apply("\"type\":\"access\",\"exp\":\"soon\""), ours));
        add("exp an array", hs256(header, claimsOfUser.apply("\"type\":\"access\",\"exp\":[1]"), ours));
        add("no type", hs256(header, claimsOfUser.apply("\"exp\":" + (now + 600)), ours));
        add("sub not numeric", hs256(header, "{\"sub\":\"admin\",\"type\":\"access\",\"exp\":" + (now + 600) + "}",
                ours));
        add("sub missing", hs256(header, "{\"type\":\"access\",\"exp\":" + (now + 600) + "}", ours));
        add("sub of nobody", hs256(header, "{\"sub\":\"987654321\",\"type\":\"access\",\"exp\":" + (now + 600) + "}",
                ours));
        add("logged out (blacklisted)", revoked.accessToken());
        TOKENS.add(new Hostile("refresh token as access", user.refreshToken(),
                EnumSet.of(Reader.REFRESH, Reader.LOGOUT_REFRESH)));
        TOKENS.add(new Hostile("access token as refresh or verification", user.accessToken(), BEARER));
        TOKENS.add(new Hostile("email_verify token as access or refresh", verifyToken,
                EnumSet.of(Reader.VERIFY_EMAIL)));
        TOKENS.add(new Hostile("SSO token as refresh or verification", sso, BEARER));
        add("5 KB", "eyJ" + "A".repeat(5_000) + ".eyJ.c2ln");
        TOKENS.add(new Hostile("100 KB", "eyJ" + "A".repeat(100_000) + ".eyJ.c2ln", IN_HEADER_OR_URL));
        add("ticket shape, unknown", "ST-" + "A".repeat(43));
        add("ticket prefix only", "ST-");
        add("path and query characters", "ST-../../admin?x=1&y=%00");
        add("an API key", "sk-" + "A".repeat(43));
    }

    private static void add(String name, String token) {
        TOKENS.add(new Hostile(name, token, EnumSet.noneOf(Reader.class)));
    }

    @Test
    @Order(1)
    void whenHostileTokensAreSentToEveryReaderThenEachAnswersItsFourHundredInTheEnvelope() throws Exception {
        assertThat(TOKENS).hasSizeGreaterThanOrEqualTo(20);
        var soft = new SoftAssertions();
        for (Reader reader : Reader.values()) {
            for (Hostile hostile : TOKENS) {
                if (hostile.goodAt().contains(reader)) {
                    continue;
                }
                Reply reply = send(reader, hostile.token());
                soft.assertThat(reply.status()).as(reader + " / " + hostile.name() + ": " + reply)
                        .isIn(expected(reader, hostile));
                soft.assertThat(envelope(reply)).as(reader + " / " + hostile.name() + " envelope: " + reply)
                        .isTrue();
            }
        }
        soft.assertAll();
        httpLogLines = Files.readAllLines(AtriumServer.get().serverLog(), StandardCharsets.ISO_8859_1).size();
    }

    @Test
    @Order(2)
    void whenHostileTokensOpenTheWebSocketWithTheJdkClientThenItsHandshakeFailsWithItsFourHundred() throws Exception {
        var soft = new SoftAssertions();
        for (Hostile hostile : TOKENS) {
            if (hostile.goodAt().contains(Reader.WS_QUERY) || hostile.token().length() > 10_000) {
                continue;
            }
            var query = handshakeStatus("?token=" + URLEncoder.encode(hostile.token(), StandardCharsets.UTF_8), null);
            soft.assertThat(query).as("query / " + hostile.name()).isIn(expected(Reader.WS_QUERY, hostile));
            var header = handshakeStatus("", hostile.token());
            soft.assertThat(header).as("header / " + hostile.name()).isIn(expected(Reader.WS_HEADER, hostile));
        }
        soft.assertAll();
    }

    @Test
    @Order(2)
    void whenRandomTokensComeToTheWebSocketThenEveryHandshakeIsAFourHundredInTheEnvelopeAndNoneUpgrades()
            throws Exception {
        var random = new Random(20261128L);
        var soft = new SoftAssertions();
        for (int i = 0; i < 150; i++) {
            boolean inHeader = random.nextBoolean();
            String token = randomToken(random, inHeader);
            Reply reply = inHeader ? WebSocketHandshake.send(wsPath(""), token)
                    : WebSocketHandshake.send(wsPath("?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8)),
                            null);
            String as = (inHeader ? "header" : "query") + " #" + i + " " + token + ": " + reply;
            soft.assertThat(reply.status()).as(as).isBetween(400, 499);
            soft.assertThat(envelope(reply)).as(as).isTrue();
        }
        soft.assertAll();
    }

    @Test
    @Order(3)
    void whenAnApiKeyComesInTheWebSocketUrlThenItIsRefusedWithItsReasonAndInTheHeaderItIsServed() throws Exception {
        String key = user.api().post("/api-keys").json().get("api_key").asText();
        for (String bearer : Arrays.asList(null, user.accessToken())) {
            Reply refused = WebSocketHandshake.send(wsPath("?token=" + key), bearer);
            assertThat(refused.status()).as(String.valueOf(refused)).isEqualTo(400);
            assertThat(refused.json().at("/error/message").asText())
                    .isEqualTo("API keys are accepted only in the Authorization header");
            assertThat(refused.body()).doesNotContain(key);
        }

        var client = new ChatSocketIT.Client();
        client.socket = WS.newWebSocketBuilder().header("Authorization", "Bearer " + key)
                .buildAsync(URI.create(wsUrl("")), client).get(10, TimeUnit.SECONDS);
        client.socket.sendText("{\"messages\":[{\"role\":\"user\",\"content\":\"key in the header\"}]}", true);
        assertThat(client.untilDone()).last().satisfies(f -> assertThat(f.get("type").asText()).isEqualTo("done"));
        client.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
    }

    @Test
    @Order(4)
    void whenAHundredKilobyteTokenComesInAHeaderOrUrlThenTheAnswerIsAFourHundredNotAFiveHundred() {
        String huge = "eyJ" + "A".repeat(100_000) + ".eyJ.c2ln";
        for (Reader reader : IN_HEADER_OR_URL) {
            Reply reply = send(reader, huge);
            assertThat(reply.status()).as(reader + ": " + reply).isBetween(400, 499);
        }
    }

    @Test
    @Order(99)
    void whenAllThatIsDoneThenTheServerLogHasNoSevereLineAndNoToken() throws Exception {
        var lines = Files.readAllLines(AtriumServer.get().serverLog(), StandardCharsets.ISO_8859_1);
        var ours = lines.subList((int) Math.min(logLinesBefore, lines.size()), lines.size());
        var http = lines.subList((int) logLinesBefore, (int) Math.max(logLinesBefore, httpLogLines));
        assertThat(http).as("HTTP paths").noneMatch(line -> line.contains("levelValue: 1000"));
        // Payara's own race when a client hangs up right after a WebSocket upgrade (payara/Payara#5432): the
        // container recycles the request while it is still being handled, and an error surfaces in the container
        // itself (seen in Grizzly's HttpCodecUtils.parseHost, URLDecoder.decodeAscii and Mapper.map "Host is not
        // set", Catalina's Request.setAttribute under our mechanism, RealmAdapter.getResourceName). Those are left out;
        // every other record must have no SEVERE level and no stack trace through our token code.
        for (List<String> record : records(ours)) {
            if (containerRace(record)) {
                continue;
            }
            String entry = String.join("\n", record);
            assertThat(entry).as("no SEVERE line").doesNotContain("levelValue: 1000");
            assertThat(record).as("no stack trace from reading tokens")
                    .noneMatch(line -> line.contains("at dev.atrium.identity") || line.contains("at com.nimbusds"));
        }
        for (Hostile hostile : TOKENS) {
            if (hostile.token().length() >= 20 && !hostile.token().startsWith("ST-")) {
                assertThat(ours).as(hostile.name()).noneMatch(line -> line.contains(hostile.token()));
            }
        }
    }

    /** The log cut into records: each starts with its time stamp line. */
    private static List<List<String>> records(List<String> lines) {
        var records = new ArrayList<List<String>>();
        for (String line : lines) {
            if (line.startsWith("[20") || records.isEmpty()) {
                records.add(new ArrayList<>());
            }
            records.get(records.size() - 1).add(line);
        }
        return records;
    }

    /**
     * A container error of the recycled-request race: logged by the web container (AS-WEB-CORE-00037 or its
     * security realm), its exception thrown by the container's own frame, not ours or the JWT library's, and
     * caused by nothing else.
     */
    private static boolean containerRace(List<String> record) {
        String first = record.get(0);
        if (!first.contains("jakarta.enterprise.web") && !first.contains("javax.enterprise.system.container.web")) {
            return false;
        }
        if (record.stream().anyMatch(line -> line.contains("Caused by:"))) {
            return false;
        }
        for (String line : record) {
            String frame = line.trim();
            if (frame.startsWith("at ")) {
                return !frame.startsWith("at dev.atrium") && !frame.startsWith("at com.nimbusds");
            }
        }
        return false;
    }

    private static Set<Integer> expected(Reader reader, Hostile hostile) {
        return switch (reader) {
            case ME_PERMISSIONS, CHAT, SSO_LOGIN, LOGOUT_BEARER, REFRESH, LOGOUT_REFRESH, WS_HEADER -> Set.of(401);
            // a key in the URL is refused for where it is, before it is read
            case WS_QUERY -> hostile.token().startsWith("sk-") ? Set.of(400) : Set.of(401);
            case VERIFY_EMAIL, SSO_VALIDATE -> Set.of(400);
            // the body's own limit on the token's length answers 422 before the token is read
            case PASSWORD_RESET -> hostile.token().length() > 100 ? Set.of(422) : Set.of(400);
            default -> throw new IllegalArgumentException(reader.name());
        };
    }

    private static Reply send(Reader reader, String token) {
        var api = Api.anonymous();
        String query = URLEncoder.encode(token, StandardCharsets.UTF_8);
        return switch (reader) {
            case ME_PERMISSIONS -> api.withToken(token).get("/me/permissions");
            case CHAT -> api.withToken(token).post("/api/chat/completions", Map.of("message", "hello"));
            case SSO_LOGIN -> api.withToken(token).get("/sso/login?service=" + AtriumServer.SSO_SERVICE);
            case LOGOUT_BEARER -> api.withToken(token).post("/logout");
            case REFRESH -> api.post("/refresh", Map.of("refresh_token", token));
            case LOGOUT_REFRESH -> api.post("/logout", Map.of("refresh_token", token));
            case VERIFY_EMAIL -> api.get("/verify-email?token=" + query);
            case PASSWORD_RESET -> api.post("/password/reset", Map.of("token", token,
                    "new_password", "Hostile-Passw0rd-1"));
            case SSO_VALIDATE -> api.get("/sso/validate?ticket=" + query + "&service=" + AtriumServer.SSO_SERVICE);
            case WS_QUERY -> handshake(wsPath("?token=" + query), null);
            case WS_HEADER -> handshake(wsPath(""), token);
        };
    }

    private static boolean envelope(Reply reply) {
        try {
            var error = reply.json().get("error");
            return error != null && error.get("code").asInt() >= 40000 && error.get("code").asInt() < 50000
                    && error.hasNonNull("message");
        } catch (AssertionError notJson) {
            return false;
        }
    }

    private static Reply handshake(String pathAndQuery, String bearer) {
        try {
            return WebSocketHandshake.send(pathAndQuery, bearer);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The status the JDK's WebSocket client sees when its handshake fails; 101 when it opened. */
    private static int handshakeStatus(String query, String bearer) throws Exception {
        var builder = WS.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        if (bearer != null) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        try {
            var socket = builder.buildAsync(URI.create(wsUrl(query)), new WebSocket.Listener() { })
                    .get(10, TimeUnit.SECONDS);
            socket.abort();
            return 101;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
    }

    private static String wsPath(String query) {
        return "/ws/chat/" + user.id() + query;
    }

    private static String wsUrl(String query) {
        return AtriumServer.get().baseUrl().replace("http://", "ws://") + wsPath(query);
    }

    /**
     * Token-shaped noise: JWT-like segments, prefixes of our own kinds, separators, and beyond ASCII in the URL (a
     * header with bytes beyond ASCII is refused by the container's HTTP parser on every path, 400 with no body).
     */
    private static String randomToken(Random random, boolean inHeader) {
        String[] prefixes = {"ey", "eyJ", "sk-", "ST-", "", "Bearer ", "eyJhbGciOiJub25lIn0."};
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/%~ \t\"'{}:,";
        var token = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
        int length = 1 + random.nextInt(random.nextInt(10) == 0 ? 3_000 : 120);
        for (int i = 0; i < length; i++) {
            token.append(!inHeader && random.nextInt(20) == 0 ? (char) (0x80 + random.nextInt(0x700))
                    : alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return token.toString().strip();
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String hs256(String header, String claims, byte[] secret) throws Exception {
        return mac("HmacSHA256", header, claims, secret);
    }

    private static String mac(String algorithm, String header, String claims, byte[] secret) throws Exception {
        String input = b64(header) + "." + b64(claims);
        var mac = Mac.getInstance(algorithm);
        mac.init(new SecretKeySpec(secret, algorithm));
        return input + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String rs256(String header, String claims, RSAKey key) throws Exception {
        String input = b64(header) + "." + b64(claims);
        var signature = Signature.getInstance("SHA256withRSA");
        signature.initSign(key.toPrivateKey());
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
    }
}
