package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Random;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The reports subsystem ({@code reports-module}, deployed beside Atrium at {@code /reports}) trusts Atrium's RS256
 * SSO tokens through MicroProfile JWT alone: Payara verifies them against {@code /.well-known/jwks.json} and the
 * issuer, the {@code groups} claim gives the roles. Whatever else arrives is refused with 401.
 */
@ExtendWith(AtriumServer.class)
class SubsystemJwtIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder UNB64 = Base64.getUrlDecoder();

    private static String sso(Accounts.Account user) {
        String password = user.email().equals(AtriumServer.ADMIN_EMAIL) ? AtriumServer.ADMIN_PASSWORD
                : Accounts.PASSWORD;
        var reply = Api.anonymous().post("/sso/login", Map.of("email", user.email(), "password", password,
                "redirect_url", AtriumServer.SSO_REDIRECT));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().get("token").asText();
    }

    private static Reply reports(String path, String token) {
        var api = Api.anonymous();
        return (token == null ? api : api.withToken(token)).get("/reports" + path);
    }

    private static String part(String token, int i) {
        return token.split("\\.", -1)[i];
    }

    private static String reencoded(Object header, Object payload, String signature) throws Exception {
        return B64.encodeToString(JSON.writeValueAsBytes(header)) + "."
                + B64.encodeToString(JSON.writeValueAsBytes(payload)) + "." + signature;
    }

    @Test
    void whenAValidSsoTokenCallsTheReportsThenItsGroupsAreItsRolesAndAtriumAnswersWithIt() {
        var user = Accounts.verified("reports");
        String token = sso(user);

        var me = reports("/me?month=2026-11", token);
        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.json().get("user_id").asText()).isEqualTo(Long.toString(user.id()));
        assertThat(me.json().get("groups").toString()).contains("\"user\"").doesNotContain("admin");
        assertThat(me.json().get("month").asText()).isEqualTo("2026-11");
        // read from Atrium's own API with the caller's token
        assertThat(me.json().at("/usage/records").asInt()).isZero();
        assertThat(me.json().at("/revenue/calls").asInt()).isZero();
        assertThat(me.json().at("/revenue/currency").asText()).isEqualTo("USD");

        var platform = reports("/platform?month=2026-11", token);
        assertThat(platform.status()).as("a user is not an administrator: " + platform).isEqualTo(403);
        assertThat(platform.json().at("/error/code").asText()).as(platform.toString()).isEqualTo("forbidden");

        String admin = sso(Accounts.admin());
        var asAdmin = reports("/platform?month=2026-11", admin);
        assertThat(asAdmin.status()).as(asAdmin.toString()).isEqualTo(200);
        assertThat(asAdmin.json().at("/reconciliation/agrees").isBoolean()).as(asAdmin.toString()).isTrue();
        assertThat(reports("/me", admin).json().get("groups").toString()).contains("\"admin\"");
    }

    @Test
    void whenTheTokenIsExpiredForgedUnsignedOrNotAnSsoTokenThenTheReportsAnswer401() throws Exception {
        var user = Accounts.verified("reports-hostile");
        String valid = sso(user);
        String expired;
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofDays(-1));
            expired = sso(user);
        }
        var header = JSON.readValue(UNB64.decode(part(valid, 0)), ObjectNode.class);
        var payload = JSON.readValue(UNB64.decode(part(valid, 1)), ObjectNode.class);
        var promoted = payload.deepCopy();
        promoted.putArray("groups").add("admin").add("user");
        var noneHeader = JSON.createObjectNode().put("alg", "none").put("typ", "JWT");
        // the published public key used as an HMAC secret: the classic algorithm confusion
        String jwk = Api.anonymous().get("/.well-known/jwks.json").json().get("keys").get(0).toString();
        var hsHeader = header.deepCopy().put("alg", "HS256");
        String hsInput = B64.encodeToString(JSON.writeValueAsBytes(hsHeader)) + "." + part(valid, 1);
        var mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(jwk.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String confused = hsInput + "." + B64.encodeToString(mac.doFinal(hsInput.getBytes(StandardCharsets.US_ASCII)));
        String signature = part(valid, 2);
        String flipped = signature.substring(0, 10) + (signature.charAt(10) == 'A' ? 'B' : 'A')
                + signature.substring(11);

        Map<String, String> hostile = new java.util.LinkedHashMap<>();
        hostile.put("Atrium's own HS256 access token", user.accessToken());
        hostile.put("expired SSO token", expired);
        hostile.put("groups widened, signature kept", reencoded(header, promoted, signature));
        hostile.put("signature altered", part(valid, 0) + "." + part(valid, 1) + "." + flipped);
        hostile.put("unsigned (alg none)", reencoded(noneHeader, payload, ""));
        hostile.put("HS256 with the public key as secret", confused);
        hostile.put("signature removed", part(valid, 0) + "." + part(valid, 1) + ".");
        hostile.put("two segments", part(valid, 0) + "." + part(valid, 1));
        hostile.put("not a token", "hello");
        hostile.put("oversized signature", valid + "A".repeat(4_000));

        assertThat(reports("/me", valid).status()).as("the valid token the others are made from").isEqualTo(200);
        assertThat(reports("/me", null).status()).as("no token").isEqualTo(401);
        hostile.forEach((name, token) -> {
            var refused = reports("/me", token);
            assertThat(refused.status()).as(name).isEqualTo(401);
            // the container's refusal, in the portal's envelope, without a word of the token
            assertThat(refused.json().at("/error/code").asText()).as(name + ": " + refused).isEqualTo("unauthorized");
            assertThat(refused.toString()).as(name).doesNotContain(part(valid, 2));
        });
        var unknown = reports("/nothing-here", valid);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().at("/error/code").asText()).as(unknown.toString()).isEqualTo("not_found");
        // past the HTTP listener's header limit the request is refused before any token code sees it
        assertThat(reports("/me", valid + "A".repeat(20_000)).status()).isEqualTo(400);
    }

    @Test
    void whenAValidTokenIsMutatedAtRandomThenOnlyTheSameBytesAreAcceptedAndNothingAnswers5xx() throws Exception {
        String valid = sso(Accounts.verified("reports-fuzz"));
        var random = new Random(20261125L);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ";
        for (int i = 0; i < 120; i++) {
            var chars = new StringBuilder(valid);
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                int at = random.nextInt(chars.length());
                switch (random.nextInt(3)) {
                    case 0 -> chars.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> chars.deleteCharAt(at);
                    default -> chars.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String mutated = chars.toString();
            int status = reports("/me", mutated).status();
            if (sameBytes(valid, mutated)) {
                // a last base64url character may carry unused bits: the same token in other spelling
                assertThat(status).as(mutated).isIn(200, 401);
            } else {
                assertThat(status).as("mutation %d: %s", i, mutated).isEqualTo(401);
            }
        }
    }

    private static boolean sameBytes(String a, String b) {
        String[] x = a.split("\\.", -1);
        String[] y = b.split("\\.", -1);
        if (x.length != y.length) {
            return false;
        }
        try {
            for (int i = 0; i < x.length; i++) {
                if (!Arrays.equals(UNB64.decode(x[i]), UNB64.decode(y[i]))) {
                    return false;
                }
            }
            return true;
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    @Test
    void whenTheSigningKeysRotateThenTheOldTokenStillWorksAndTheNewOneOnceTheJwksIsFetchedAgain()
            throws Exception {
        var user = Accounts.verified("reports-rotation");
        String before = sso(user);
        String oldKid = JSON.readTree(UNB64.decode(part(before, 0))).get("kid").asText();
        assertThat(reports("/me", before).status()).isEqualTo(200);

        var rotated = Accounts.admin().api().post("/admin/keys/rotate", Map.of());
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        String after = sso(user);
        String newKid = JSON.readTree(UNB64.decode(part(after, 0))).get("kid").asText();
        assertThat(newKid).isNotEqualTo(oldKid);

        assertThat(reports("/me", before).status()).as("signed by the previous key, not expired").isEqualTo(200);
        // Payara keeps the fetched JWKS for publicKey.cache.ttl (30 s, reports-module's payara-mp-jwt.properties);
        // it is real time inside the server, so this waits for it instead of moving a clock
        long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        int status = reports("/me", after).status();
        while (status != 200 && System.nanoTime() < deadline) {
            assertThat(status).isEqualTo(401);
            Thread.sleep(1000);
            status = reports("/me", after).status();
        }
        assertThat(status).as("the new key's token once the keys are fetched again").isEqualTo(200);
        assertThat(reports("/me", before).status()).as("the previous key still verifies").isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-13", "2026-00", "2026-1", "26-11", "2026-11-01", "2026/11", "../../admin",
            "2026-11%00", "%27%20or%201%3D1", "99999999999999999999-01"})
    void whenTheMonthIsNotAMonthThenTheReportsAnswer400InTheEnvelope(String month) {
        var reply = reports("/me?month=" + month, sso(Accounts.verified("reports-month")));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().at("/error/code").asText()).isEqualTo("invalid_month");
    }
}
