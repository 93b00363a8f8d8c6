package dev.atrium.identity.control.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import dev.atrium.identity.control.Hashes;
import dev.atrium.identity.control.token.InvalidTokenException.Reason;

/** The token reader's table of hostile tokens: each is refused with its reason, and nothing else escapes. */
class TokenReaderTest {

    private static final TokenFixture F = new TokenFixture();
    private static final byte[] FOREIGN = "another-secret-0123456789abcdefghijkl".getBytes(StandardCharsets.UTF_8);

    private static String header(String alg, String kid) {
        return "{\"alg\":\"" + alg + "\",\"typ\":\"JWT\"" + (kid == null ? "" : ",\"kid\":\"" + kid + "\"") + "}";
    }

    private static String hs256() {
        return header("HS256", F.kid());
    }

    private static String claims(String type, String sub, long exp) {
        return "{\"sub\":\"" + sub + "\",\"type\":\"" + type + "\",\"role\":\"admin\",\"exp\":" + exp + "}";
    }

    private static String access() {
        return claims("access", "7", F.inSeconds(600));
    }

    private static String rs256(String kid, boolean ours) throws Exception {
        var key = ours ? F.ring.currentRsa() : new RSAKeyGenerator(2048).generate();
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).build(),
                JWTClaimsSet.parse(access()));
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    static Stream<Arguments> hostile() throws Exception {
        String valid = F.tokens.issue(TokenType.ACCESS, 7, "user");
        String[] parts = valid.split("\\.");
        String rsaKid = F.ring.currentRsa().getKeyID();
        var hsWithRsaPublic = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(rsaKid).build(),
                JWTClaimsSet.parse(access()));
        hsWithRsaPublic.sign(new MACSigner(F.ring.currentRsa().toPublicJWK().toJSONString()
                .getBytes(StandardCharsets.UTF_8)));
        return Stream.of(
                Arguments.of("null", null, Reason.MALFORMED),
                Arguments.of("empty", "", Reason.MALFORMED),
                Arguments.of("blank", "   ", Reason.MALFORMED),
                Arguments.of("garbage", "garbage", Reason.MALFORMED),
                Arguments.of("three dots", "...", Reason.MALFORMED),
                Arguments.of("empty segments", "..sig", Reason.MALFORMED),
                Arguments.of("five segments (JWE shape)", "a.b.c.d.e", Reason.MALFORMED),
                Arguments.of("whitespace inside", parts[0] + ". " + parts[1] + "." + parts[2], Reason.MALFORMED),
                Arguments.of("trailing newline", valid + "\n", Reason.MALFORMED),
                Arguments.of("non-ASCII", valid + "é", Reason.MALFORMED),
                Arguments.of("4097 characters", "ey" + "a".repeat(TokenService.MAX_LENGTH - 1), Reason.TOO_LARGE),
                Arguments.of("100 KB", parts[0] + "." + "A".repeat(100_000) + "." + parts[2], Reason.TOO_LARGE),
                Arguments.of("header not JSON", TokenFixture.b64("not json") + "." + parts[1] + "." + parts[2],
                        Reason.MALFORMED),
                Arguments.of("header a JSON array", F.signed("[1,2]", access()), Reason.MALFORMED),
                Arguments.of("claims not JSON", F.signed(hs256(), "{\"sub\":"), Reason.MALFORMED),
                Arguments.of("no kid", F.signed(header("HS256", null), access()), Reason.UNKNOWN_KEY),
                Arguments.of("kid null", F.signed("{\"alg\":\"HS256\",\"kid\":null}", access()),
                        Reason.UNKNOWN_KEY),
                Arguments.of("kid a number", F.signed("{\"alg\":\"HS256\",\"kid\":42}", access()),
                        Reason.MALFORMED),
                Arguments.of("kid 10 KB long", F.signed(header("HS256", "k".repeat(2000)), access()),
                        Reason.UNKNOWN_KEY),
                Arguments.of("unknown kid", F.signed(header("HS256", "hs-unknown"), access()), Reason.UNKNOWN_KEY),
                Arguments.of("foreign secret, our kid", TokenFixture.signed(hs256(), access(), FOREIGN),
                        Reason.SIGNATURE),
                Arguments.of("foreign secret, no kid", TokenFixture.signed(header("HS256", null), access(), FOREIGN),
                        Reason.UNKNOWN_KEY),
                Arguments.of("alg none", TokenFixture.b64("{\"alg\":\"none\"}") + "." + parts[1] + ".",
                        Reason.MALFORMED),
                Arguments.of("alg none with our kid", TokenFixture.b64(header("none", F.kid())) + "." + parts[1]
                        + ".", Reason.MALFORMED),
                Arguments.of("alg HS512", TokenFixture.signed(header("HS512", F.kid()), access(), FOREIGN),
                        Reason.ALGORITHM),
                Arguments.of("alg garbage", F.signed(header("XX999", F.kid()), access()), Reason.ALGORITHM),
                Arguments.of("HS256 keyed with the RSA public JWK", hsWithRsaPublic.serialize(), Reason.UNKNOWN_KEY),
                Arguments.of("RS256 with an unknown kid", rs256("rs-unknown", false), Reason.UNKNOWN_KEY),
                Arguments.of("RS256 by a foreign key under our kid", rs256(rsaKid, false), Reason.SIGNATURE),
                Arguments.of("crit header", F.signed("{\"alg\":\"HS256\",\"kid\":\"" + F.kid()
                        + "\",\"crit\":[\"exp\"],\"exp\":1}", access()), Reason.MALFORMED),
                Arguments.of("typ not JWT", F.signed("{\"alg\":\"HS256\",\"typ\":\"at+jwt\",\"kid\":\"" + F.kid()
                        + "\"}", access()), Reason.MALFORMED),
                Arguments.of("tampered payload", parts[0] + "." + TokenFixture.b64(access()) + "." + parts[2],
                        Reason.SIGNATURE),
                Arguments.of("signature stripped", parts[0] + "." + parts[1] + ".", Reason.MALFORMED),
                Arguments.of("signature spelled otherwise (an unused bit set)", parts[0] + "." + parts[1] + "."
                        + TokenFixture.respellings(parts[2]).get(0), Reason.MALFORMED),
                Arguments.of("signature of an impossible length", valid + "AA", Reason.MALFORMED),
                Arguments.of("claims spelled otherwise", respelledClaims(), Reason.MALFORMED),
                Arguments.of("expired", F.signed(hs256(), claims("access", "7", F.inSeconds(-1))), Reason.EXPIRED),
                Arguments.of("no exp", F.signed(hs256(), "{\"sub\":\"7\",\"type\":\"access\"}"), Reason.EXPIRED),
                Arguments.of("exp a string", F.signed(hs256(), "{\"sub\":\"7\",\"type\":\"access\",\"exp\":\"soon\"}"),
                        Reason.MALFORMED),
                Arguments.of("exp an array", F.signed(hs256(), "{\"sub\":\"7\",\"type\":\"access\",\"exp\":[1]}"),
                        Reason.MALFORMED),
                Arguments.of("refresh as access", F.tokens.issue(TokenType.REFRESH, 7, "user"), Reason.WRONG_TYPE),
                Arguments.of("email_verify as access", F.tokens.issue(TokenType.EMAIL_VERIFY, 7, "user"),
                        Reason.WRONG_TYPE),
                Arguments.of("type missing", F.signed(hs256(), "{\"sub\":\"7\",\"exp\":" + F.inSeconds(60) + "}"),
                        Reason.WRONG_TYPE),
                Arguments.of("type an array", F.signed(hs256(), "{\"sub\":\"7\",\"type\":[\"access\"],\"exp\":"
                        + F.inSeconds(60) + "}"), Reason.WRONG_TYPE),
                Arguments.of("sub missing", F.signed(hs256(), "{\"type\":\"access\",\"exp\":" + F.inSeconds(60)
                        + "}"), Reason.MALFORMED),
                Arguments.of("sub not numeric", F.signed(hs256(), claims("access", "admin", F.inSeconds(60))),
                        Reason.MALFORMED),
                Arguments.of("sub negative", F.signed(hs256(), claims("access", "-1", F.inSeconds(60))),
                        Reason.MALFORMED),
                Arguments.of("sub beyond a long", F.signed(hs256(), claims("access", "99999999999999999999",
                        F.inSeconds(60))), Reason.MALFORMED));
    }

    /** Claims whose encoding leaves unused bits, one of them set, signed with our key over what is sent. */
    private static String respelledClaims() {
        String claims = access();
        while (TokenFixture.b64(claims).length() % 4 < 2) {
            claims = claims.substring(0, claims.length() - 1) + " }";
        }
        return TokenFixture.signedInput(TokenFixture.b64(hs256()) + "."
                + TokenFixture.respellings(TokenFixture.b64(claims)).get(0), F.ring.currentHmac().secret());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void whenAHostileTokenIsReadThenItIsRefusedWithItsReason(String name, String token, Reason reason) {
        assertThatThrownBy(() -> F.tokens.verify(token, TokenType.ACCESS, true))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    @Test
    void whenAnAccessTokenIsReadAsRefreshOrAnSsoTokenWithoutSsoThenWrongTypeOrAlgorithm() throws Exception {
        String access = F.tokens.issue(TokenType.ACCESS, 7, "user");
        assertThatThrownBy(() -> F.tokens.verify(access, TokenType.REFRESH))
                .isInstanceOfSatisfying(InvalidTokenException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.WRONG_TYPE));
        String sso = rs256(F.ring.currentRsa().getKeyID(), true);
        assertThat(F.tokens.verify(sso, TokenType.ACCESS, true).userId()).isEqualTo(7);
        assertThatThrownBy(() -> F.tokens.verify(sso, TokenType.ACCESS, false))
                .isInstanceOfSatisfying(InvalidTokenException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.ALGORITHM));
        assertThatThrownBy(() -> F.tokens.verify(sso, TokenType.REFRESH, true))
                .isInstanceOfSatisfying(InvalidTokenException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.ALGORITHM));
    }

    @Test
    void whenOurOwnTokenIsReadThenItPassesWithItsClaims() throws Exception {
        var token = F.tokens.verify(F.signed(hs256(), access()), TokenType.ACCESS);
        assertThat(token.userId()).isEqualTo(7);
        assertThat(token.role()).isEqualTo("admin");
        assertThat(token.expiresAt()).isEqualTo(new Date(F.inSeconds(600) * 1000).toInstant());
    }

    @Test
    void whenAnOpaqueValueIsNotOfOurShapeThenItIsNotLookedUp() {
        String ticket = "ST-" + Hashes.randomToken(32);
        assertThat(F.tokens.plausibleOpaque(ticket, "ST-", "service ticket")).isTrue();
        assertThat(F.tokens.plausibleOpaque(Hashes.randomToken(32), "", "reset token")).isTrue();
        for (String hostile : new String[] {null, "", "ST-", "ST-x", ticket + "A", ticket.substring(1),
                "XX-" + ticket.substring(3), ticket.substring(0, 45) + "/", ticket.substring(0, 45) + "=",
                "ST-" + "A".repeat(100_000), ticket.substring(0, 45) + "\n"}) {
            assertThat(F.tokens.plausibleOpaque(hostile, "ST-", "service ticket")).as(String.valueOf(hostile))
                    .isFalse();
        }
    }
}
