package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;

import dev.atrium.identity.control.oauth.InvalidIdTokenException.Reason;
import dev.atrium.identity.control.token.RandomJson;

/**
 * Random ID tokens from a seeded loop: random headers and claims, signed by the provider's key (so the claim checks
 * are reached), by another key, or not at all, up to beyond the size bound. Only {@link InvalidIdTokenException}
 * ever comes out.
 */
class IdTokenValidatorFuzzTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000) / 2;
    private static final String ISSUER = "https://id.example.com";
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final List<String> ALGS = List.of("RS256", "ES256", "HS256", "none", "PS256", "RS512", "xx");

    @Test
    void whenRandomIdTokensAreValidatedThenOnlyInvalidIdTokenComesOut() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
        RSAKey other = new RSAKeyGenerator(2048).keyID("k1").generate();
        var keys = new JWKSet(key.toPublicJWK());
        var expected = new IdTokenValidator.Expectations(ISSUER, "atrium", "n-1",
                Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256));
        var random = new Random(SEED);
        Set<Reason> seen = EnumSet.noneOf(Reason.class);
        for (int i = 0; i < ROUNDS; i++) {
            String input = b64(header(random)) + "." + b64(claims(random));
            String token = switch (random.nextInt(4)) {
                case 0, 1 -> input + "." + rs256(key, input);
                case 2 -> input + "." + rs256(other, input);
                default -> random.nextBoolean() ? input + "." : RandomJson.string(random);
            };
            try {
                IdTokenValidator.validate(token, keys, expected, NOW);
            } catch (InvalidIdTokenException e) {
                seen.add(e.reason());
            } catch (Throwable e) {
                fail("Round " + i + " (seed " + SEED + ") escaped as " + e, e);
            }
        }
        assertThat(seen).contains(Reason.MALFORMED, Reason.ALGORITHM, Reason.SIGNATURE, Reason.ISSUER,
                Reason.AUDIENCE, Reason.EXPIRED, Reason.NONCE);
    }

    private static String header(Random random) {
        var header = new StringBuilder("{\"alg\":").append(random.nextInt(5) == 0 ? RandomJson.value(random, 1)
                : RandomJson.quote(ALGS.get(random.nextInt(random.nextBoolean() ? 1 : ALGS.size()))));
        switch (random.nextInt(4)) {
            case 0 -> { }
            case 1 -> header.append(",\"kid\":").append(RandomJson.value(random, 1));
            default -> header.append(",\"kid\":\"k1\"");
        }
        if (random.nextInt(6) == 0) {
            header.append(",\"crit\":").append(RandomJson.value(random, 2));
        }
        if (random.nextInt(6) == 0) {
            header.append(",\"jwk\":").append(RandomJson.value(random, 3));
        }
        return header.append("}").toString();
    }

    private static String claims(Random random) {
        long now = NOW.getEpochSecond();
        var claims = new StringBuilder("{");
        claims.append("\"iss\":").append(random.nextInt(3) != 0 ? RandomJson.quote(ISSUER)
                : RandomJson.value(random, 2));
        claims.append(",\"aud\":").append(switch (random.nextInt(4)) {
            case 0 -> "\"atrium\"";
            case 1 -> "[\"atrium\",\"other\"]";
            default -> RandomJson.value(random, 2);
        });
        claims.append(",\"exp\":").append(random.nextInt(3) != 0 ? String.valueOf(now + 300 - random.nextInt(800))
                : RandomJson.value(random, 1));
        claims.append(",\"iat\":").append(random.nextInt(3) != 0 ? String.valueOf(now - random.nextInt(200))
                : RandomJson.value(random, 1));
        if (random.nextBoolean()) {
            claims.append(",\"nbf\":").append(RandomJson.value(random, 1));
        }
        if (random.nextBoolean()) {
            claims.append(",\"azp\":").append(random.nextBoolean() ? "\"atrium\"" : RandomJson.value(random, 1));
        }
        claims.append(",\"nonce\":").append(random.nextInt(3) != 0 ? "\"n-1\"" : RandomJson.value(random, 1));
        claims.append(",\"sub\":").append(random.nextInt(3) != 0 ? "\"abc\"" : RandomJson.value(random, 1));
        if (random.nextInt(30) == 0) {
            claims.append(",\"pad\":\"").append("x".repeat(random.nextInt(40_000))).append('"');
        }
        return claims.append(",\"junk\":").append(RandomJson.value(random, 4)).append("}").toString();
    }

    private static String rs256(RSAKey key, String input) throws Exception {
        var signature = Signature.getInstance("SHA256withRSA");
        signature.initSign(key.toPrivateKey());
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
