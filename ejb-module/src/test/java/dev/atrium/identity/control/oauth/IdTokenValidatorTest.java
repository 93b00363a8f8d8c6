package dev.atrium.identity.control.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;

import dev.atrium.identity.control.oauth.InvalidIdTokenException.Reason;

class IdTokenValidatorTest {

    private static final String ISSUER = "https://id.example.com";
    private static final String CLIENT = "atrium";
    private static final String NONCE = "n-0S6_WzA2Mj";
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final IdTokenValidator.Expectations EXPECTED = new IdTokenValidator.Expectations(ISSUER, CLIENT,
            NONCE, Set.of(JWSAlgorithm.RS256));

    private static RSAKey key;
    private static RSAKey otherKeyWithSameId;
    private static JWKSet published;

    @BeforeAll
    static void keys() throws Exception {
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        otherKeyWithSameId = new RSAKeyGenerator(2048).keyID("k1").generate();
        published = new JWKSet(key.toPublicJWK());
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .subject("248289761001")
                .audience(CLIENT)
                .issueTime(Date.from(NOW.minusSeconds(5)))
                .expirationTime(Date.from(NOW.plusSeconds(300)))
                .claim("nonce", NONCE)
                .claim("email", "jane@example.com");
    }

    private static String sign(RSAKey with, Consumer<JWTClaimsSet.Builder> change) throws Exception {
        var builder = claims();
        change.accept(builder);
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(with.getKeyID())
                .type(JOSEObjectType.JWT).build(), builder.build());
        jwt.sign(new RSASSASigner(with));
        return jwt.serialize();
    }

    private static String signed(Consumer<JWTClaimsSet.Builder> change) throws Exception {
        return sign(key, change);
    }

    private static void assertRefused(String token, Reason reason) {
        assertThatThrownBy(() -> IdTokenValidator.validate(token, published, EXPECTED, NOW))
                .isInstanceOfSatisfying(InvalidIdTokenException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }

    @Test
    void whenEverythingMatchesThenTheClaimsAreAnswered() throws Exception {
        var claims = IdTokenValidator.validate(signed(b -> { }), published, EXPECTED, NOW);

        assertThat(claims.getSubject()).isEqualTo("248289761001");
        assertThat(claims.getClaim("email")).isEqualTo("jane@example.com");
    }

    @Test
    void whenIssuerIsAnotherThenRefused() throws Exception {
        assertRefused(signed(b -> b.issuer("https://evil.example.com")), Reason.ISSUER);
        assertRefused(signed(b -> b.issuer(ISSUER + "/")), Reason.ISSUER);
    }

    @Test
    void whenAudienceIsAnotherClientThenRefused() throws Exception {
        assertRefused(signed(b -> b.audience("someone-else")), Reason.AUDIENCE);
        assertRefused(signed(b -> b.audience(List.of())), Reason.AUDIENCE);
    }

    @Test
    void whenAuthorizedPartyIsAnotherClientThenRefused() throws Exception {
        assertRefused(signed(b -> b.audience(List.of(CLIENT, "other")).claim("azp", "other")),
                Reason.AUTHORIZED_PARTY);
    }

    @Test
    void whenNonceIsAnotherOrMissingThenRefused() throws Exception {
        assertRefused(signed(b -> b.claim("nonce", "replayed")), Reason.NONCE);
        assertRefused(signed(b -> b.claim("nonce", null)), Reason.NONCE);
    }

    @Test
    void whenExpiredByTheApplicationClockBeyondTheLeewayThenRefused() throws Exception {
        var token = signed(b -> b.expirationTime(Date.from(NOW.minusSeconds(1))));

        assertThat(IdTokenValidator.validate(token, published, EXPECTED, NOW).getSubject()).isNotNull();
        assertThatThrownBy(() -> IdTokenValidator.validate(token, published, EXPECTED,
                NOW.plus(IdTokenValidator.LEEWAY)))
                .isInstanceOfSatisfying(InvalidIdTokenException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.EXPIRED));
        assertRefused(signed(b -> b.expirationTime(null)), Reason.EXPIRED);
    }

    @Test
    void whenIssuedInTheFutureOrNotYetValidThenRefused() throws Exception {
        assertRefused(signed(b -> b.issueTime(Date.from(NOW.plus(Duration.ofMinutes(5))))), Reason.ISSUED_IN_FUTURE);
        assertRefused(signed(b -> b.notBeforeTime(Date.from(NOW.plus(Duration.ofMinutes(5))))),
                Reason.NOT_YET_VALID);
    }

    @Test
    void whenSignedByAnotherKeyThenBadSignature() throws Exception {
        assertRefused(sign(otherKeyWithSameId, b -> { }), Reason.SIGNATURE);
    }

    @Test
    void whenPayloadIsAlteredThenBadSignature() throws Exception {
        String[] parts = signed(b -> { }).split("\\.");
        String forged = signed(b -> b.subject("admin")).split("\\.")[1];

        assertRefused(parts[0] + "." + forged + "." + parts[2], Reason.SIGNATURE);
    }

    @Test
    void whenKeyIsNotInTheSetThenUnknownKey() throws Exception {
        var stranger = new RSAKeyGenerator(2048).keyID("k2").generate();

        assertRefused(sign(stranger, b -> { }), Reason.UNKNOWN_KEY);
    }

    @Test
    void whenAlgorithmIsNoneOrHmacThenRefusedWhateverTheSignature() throws Exception {
        var hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims().build());
        hmac.sign(new MACSigner("a-shared-secret-of-at-least-32-bytes!!"));

        assertRefused(hmac.serialize(), Reason.ALGORITHM);
        assertRefused(new PlainJWT(claims().build()).serialize(), Reason.MALFORMED);
        assertRefused("not.a.token", Reason.MALFORMED);
    }

    @Test
    void whenSubjectIsMissingThenRefused() throws Exception {
        assertRefused(signed(b -> b.subject(null)), Reason.SUBJECT);
    }
}
