package dev.atrium.identity.control.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.token.InvalidTokenException.Reason;

/**
 * Random input for the token reader, from seeded loops so a failure can be replayed: random bytes, random base64url
 * segments, and random JSON headers and claims (signed with our key so the claim checks are reached, with a foreign
 * key, or not at all), up to about 100 KB. Whatever comes in, the reader answers a token or an
 * {@link InvalidTokenException}, nothing else.
 */
class TokenReaderFuzzTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);
    private static final byte[] FOREIGN = "another-secret-0123456789abcdefghijkl".getBytes(StandardCharsets.UTF_8);
    private static final List<String> ALGS = List.of("HS256", "RS256", "HS512", "HS384", "ES256", "PS256", "none",
            "None", "EdDSA", "", "hs256", "\u0000");
    private static final List<String> TYPES = List.of("access", "refresh", "email_verify", "ACCESS", "", "sso");

    private final TokenFixture fixture = new TokenFixture();
    private final Set<Reason> seen = EnumSet.noneOf(Reason.class);
    private int accepted;

    @Test
    void whenRandomBytesAreReadThenOnlyInvalidTokenComesOut() {
        var random = new Random(SEED);
        for (int i = 0; i < ROUNDS; i++) {
            byte[] bytes = new byte[size(random)];
            random.nextBytes(bytes);
            String token = random.nextBoolean() ? new String(bytes, StandardCharsets.ISO_8859_1)
                    : new String(bytes, StandardCharsets.UTF_8);
            read(token, random, i);
        }
    }

    @Test
    void whenRandomBase64urlSegmentsAreReadThenOnlyInvalidTokenComesOut() {
        var random = new Random(SEED + 1);
        for (int i = 0; i < ROUNDS; i++) {
            int segments = random.nextInt(7);
            var token = new StringBuilder(random.nextBoolean() ? "ey" : "");
            for (int s = 0; s < segments; s++) {
                byte[] bytes = new byte[random.nextInt(4) == 0 ? size(random) / 2 : random.nextInt(64)];
                random.nextBytes(bytes);
                token.append(s == 0 ? "" : ".").append(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
            }
            read(token.toString(), random, i);
        }
    }

    @Test
    void whenRandomJsonHeadersAndClaimsAreReadThenOnlyInvalidTokenOrOurOwnTokenComesOut() {
        var random = new Random(SEED + 2);
        for (int i = 0; i < ROUNDS; i++) {
            // half of the headers are ours, so that the signature and the claims are checked too
            String header = switch (random.nextInt(8)) {
                case 0 -> RandomJson.value(random, 3);
                case 1, 2, 3, 4 -> "{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":" + RandomJson.quote(fixture.kid())
                        + "}";
                default -> header(random);
            };
            String claims = random.nextInt(8) == 0 ? RandomJson.value(random, 3) : claims(random);
            if (random.nextInt(10) == 0) {
                claims = claims.substring(0, random.nextInt(claims.length() + 1));
            }
            String token = switch (random.nextInt(4)) {
                case 0, 1 -> fixture.signed(header, claims);
                case 2 -> TokenFixture.signed(header, claims, FOREIGN);
                default -> TokenFixture.b64(header) + "." + TokenFixture.b64(claims) + "."
                        + (random.nextBoolean() ? "" : TokenFixture.b64(RandomJson.value(random, 1)));
            };
            read(token, random, i);
        }
        // the generator reaches every check, down to the claims of tokens signed with our key
        assertThat(seen).contains(Reason.MALFORMED, Reason.ALGORITHM, Reason.UNKNOWN_KEY, Reason.SIGNATURE,
                Reason.EXPIRED, Reason.WRONG_TYPE, Reason.TOO_LARGE);
        assertThat(accepted).isPositive();
    }

    @Test
    void whenAnIssuedTokenIsSpelledOtherwiseThenOnlyItsOwnSpellingIsRead() throws Exception {
        var random = new Random(SEED + 3);
        int respelled = 0;
        for (int i = 0; i < 200; i++) {
            long user = 1 + random.nextInt(1_000_000);
            boolean sso = random.nextInt(4) == 0;
            TokenType type = sso || random.nextBoolean() ? TokenType.ACCESS : TokenType.REFRESH;
            String token = sso ? fixture.tokens.issueSso(user, "user", List.of("user"))
                    : fixture.tokens.issue(type, user, "user");
            assertThat(fixture.tokens.verify(token, type, true).userId()).isEqualTo(user);
            String[] parts = token.split("\\.", -1);
            for (int s = 0; s < parts.length; s++) {
                for (String other : TokenFixture.respellings(parts[s])) {
                    String[] copy = parts.clone();
                    copy[s] = other;
                    String alias = String.join(".", copy);
                    assertThat(Base64.getUrlDecoder().decode(other)).isEqualTo(Base64.getUrlDecoder().decode(parts[s]));
                    assertThatThrownBy(() -> fixture.tokens.verify(alias, type, true)).as(alias)
                            .isInstanceOfSatisfying(InvalidTokenException.class,
                                    e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
                    respelled++;
                }
            }
        }
        assertThat(respelled).isGreaterThan(600);
    }

    @Test
    void whenRandomSegmentsAreCheckedThenCanonicalIsWhatTheEncoderWritesBackOfTheDecoded() {
        var random = new Random(SEED + 4);
        int canonical = 0;
        for (int i = 0; i < 50_000; i++) {
            var segment = new StringBuilder();
            for (int n = random.nextInt(48); n > 0; n--) {
                segment.append(TokenFixture.ALPHABET.charAt(random.nextInt(64)));
            }
            String s = segment.toString();
            boolean expected;
            try {
                expected = Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(Base64.getUrlDecoder().decode(s)).equals(s);
            } catch (IllegalArgumentException e) {
                expected = false;
            }
            assertThat(TokenService.canonical(s)).as(s).isEqualTo(expected);
            assertThat(TokenService.canonical(s + "." + s + ".")).as(s).isEqualTo(expected);
            canonical += expected ? 1 : 0;
        }
        assertThat(canonical).isBetween(10_000, 40_000);
    }

    private void read(String token, Random random, int round) {
        var expected = TokenType.values()[random.nextInt(TokenType.values().length)];
        try {
            fixture.tokens.verify(token, expected, random.nextBoolean());
            accepted++;
        } catch (InvalidTokenException e) {
            seen.add(e.reason());
        } catch (Throwable e) {
            fail("Round " + round + " (seed " + SEED + ") escaped as " + e + " for "
                    + token.substring(0, Math.min(200, token.length())), e);
        }
    }

    private static int size(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> random.nextInt(100_000);
            case 1 -> TokenService.MAX_LENGTH - 2 + random.nextInt(4);
            default -> random.nextInt(600);
        };
    }

    private String header(Random random) {
        var fields = new StringBuilder("{");
        if (random.nextInt(10) != 0) {
            fields.append("\"alg\":").append(random.nextInt(6) == 0 ? RandomJson.value(random, 1)
                    : RandomJson.quote(ALGS.get(random.nextInt(ALGS.size()))));
        }
        switch (random.nextInt(6)) {
            case 0 -> { }
            case 1 -> fields.append(",\"kid\":null");
            case 2 -> fields.append(",\"kid\":").append(random.nextInt());
            case 3 -> fields.append(",\"kid\":").append(RandomJson.quote(RandomJson.string(random)));
            case 4 -> fields.append(",\"kid\":").append(RandomJson.quote(fixture.ring.currentRsa().getKeyID()));
            default -> fields.append(",\"kid\":").append(RandomJson.quote(fixture.kid()));
        }
        if (random.nextBoolean()) {
            fields.append(",\"typ\":").append(random.nextInt(3) == 0 ? RandomJson.value(random, 1)
                    : RandomJson.quote("JWT"));
        }
        if (random.nextInt(5) == 0) {
            fields.append(",\"crit\":").append(random.nextBoolean() ? "[\"exp\"]" : RandomJson.value(random, 2));
        }
        if (random.nextInt(5) == 0) {
            fields.append(",\"jwk\":").append(RandomJson.value(random, 3));
        }
        if (random.nextInt(5) == 0) {
            fields.append(",\"b64\":").append(random.nextBoolean());
        }
        if (random.nextInt(5) == 0) {
            fields.append(",\"x5c\":").append(RandomJson.value(random, 2));
        }
        return fields.append(fields.length() == 1 ? "" : ",").append("\"junk\":").append(RandomJson.value(random, 2))
                .append("}").toString();
    }

    private String claims(Random random) {
        long now = fixture.clock.instant().getEpochSecond();
        var fields = new StringBuilder("{\"sub\":");
        fields.append(switch (random.nextInt(9)) {
            case 0, 7 -> RandomJson.quote("7");
            case 1 -> RandomJson.quote("-1");
            case 2 -> RandomJson.quote("99999999999999999999");
            case 3 -> String.valueOf(random.nextLong());
            case 4 -> RandomJson.quote(RandomJson.string(random));
            case 5 -> "null";
            default -> RandomJson.value(random, 2);
        });
        fields.append(",\"exp\":").append(switch (random.nextInt(10)) {
            case 0, 8 -> String.valueOf(now + 600);
            case 1 -> String.valueOf(now - 600);
            case 2 -> "1e308";
            case 3 -> String.valueOf(Long.MAX_VALUE);
            case 4 -> "-9223372036854775808";
            case 5 -> RandomJson.quote("tomorrow");
            case 6 -> "[" + (now + 600) + "]";
            default -> RandomJson.value(random, 2);
        });
        fields.append(",\"type\":").append(random.nextInt(4) == 0 ? RandomJson.value(random, 2)
                : RandomJson.quote(TYPES.get(random.nextInt(TYPES.size()))));
        if (random.nextBoolean()) {
            fields.append(",\"iat\":").append(random.nextInt(4) != 0 ? String.valueOf(now + random.nextInt(100_000))
                    : RandomJson.value(random, 1));
        }
        if (random.nextBoolean()) {
            fields.append(",\"role\":").append(random.nextBoolean() ? RandomJson.quote("admin")
                    : RandomJson.value(random, 2));
        }
        if (random.nextInt(4) == 0) {
            fields.append(",\"jti\":").append(RandomJson.value(random, 1));
        }
        if (random.nextInt(20) == 0) {
            fields.append(",\"pad\":").append(RandomJson.quote("x".repeat(random.nextInt(100_000))));
        }
        return fields.append(",\"nested\":").append(RandomJson.value(random, 4)).append("}").toString();
    }
}
