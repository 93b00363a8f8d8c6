package dev.atrium.identity.control.oauth;

import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

import dev.atrium.identity.control.oauth.InvalidIdTokenException.Reason;

/**
 * Checks an ID token as OpenID Connect Core 3.1.3.7 asks: signed with an accepted asymmetric algorithm by a key of
 * the provider's key set, issued by the expected issuer for this client, carrying the nonce of this authorization
 * request, and valid now by the application clock (with a minute of leeway for the provider's clock). The token
 * cannot choose how it is checked: the algorithm must be one the provider announced, never {@code none} or HMAC.
 * The signature is Nimbus's {@link DefaultJWTProcessor}'s to check; not its {@code IDTokenValidator}, which reads
 * the time from the system clock.
 */
public final class IdTokenValidator {

    static final Duration LEEWAY = Duration.ofSeconds(60);
    /** ID tokens carry more claims than ours, but no provider sends one near this size. */
    static final int MAX_LENGTH = 16_384;

    /** What the token must match: issuer, client id (audience) and nonce. */
    public record Expectations(String issuer, String clientId, String nonce, Set<JWSAlgorithm> algorithms) {
    }

    private IdTokenValidator() {
    }

    /**
     * Whatever the provider (or someone in its place) sends, the only failure is an {@link InvalidIdTokenException}:
     * a token over {@link #MAX_LENGTH} characters is refused unread, and an odd header or claim that trips the
     * JOSE library is malformed, not a server error.
     */
    public static JWTClaimsSet validate(String idToken, JWKSet keys, Expectations expected, Instant now)
            throws InvalidIdTokenException {
        if (idToken == null || idToken.length() > MAX_LENGTH) {
            throw new InvalidIdTokenException(Reason.MALFORMED);
        }
        try {
            SignedJWT jwt = SignedJWT.parse(idToken);
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            if (!expected.algorithms().contains(jwt.getHeader().getAlgorithm())) {
                throw new InvalidIdTokenException(Reason.ALGORITHM);
            }
            verifySignature(jwt, keys, expected.algorithms());
            checkClaims(claims, expected, now);
            return claims;
        } catch (ParseException | RuntimeException e) {
            throw new InvalidIdTokenException(Reason.MALFORMED);
        }
    }

    private static void verifySignature(SignedJWT jwt, JWKSet keys, Set<JWSAlgorithm> algorithms)
            throws InvalidIdTokenException {
        var keySelector = new JWSVerificationKeySelector<>(algorithms, new ImmutableJWKSet<>(keys));
        try {
            if (keySelector.selectJWSKeys(jwt.getHeader(), null).isEmpty()) {
                throw new InvalidIdTokenException(Reason.UNKNOWN_KEY);
            }
            var processor = new DefaultJWTProcessor<>();
            processor.setJWSKeySelector(keySelector);
            // OpenID Connect does not fix the typ header; the claims are checked apart, by the application clock
            processor.setJWSTypeVerifier((type, context) -> { });
            processor.setJWTClaimsSetVerifier(null);
            processor.process(jwt, null);
        } catch (BadJOSEException | JOSEException e) {
            throw new InvalidIdTokenException(Reason.SIGNATURE);
        }
    }

    private static void checkClaims(JWTClaimsSet claims, Expectations expected, Instant now)
            throws InvalidIdTokenException {
        if (!expected.issuer().equals(claims.getIssuer())) {
            throw new InvalidIdTokenException(Reason.ISSUER);
        }
        List<String> audience = claims.getAudience();
        if (audience == null || !audience.contains(expected.clientId())) {
            throw new InvalidIdTokenException(Reason.AUDIENCE);
        }
        Object azp = claims.getClaim("azp");
        if (azp != null && !expected.clientId().equals(azp)) {
            throw new InvalidIdTokenException(Reason.AUTHORIZED_PARTY);
        }
        Date exp = claims.getExpirationTime();
        if (exp == null || !now.isBefore(exp.toInstant().plus(LEEWAY))) {
            throw new InvalidIdTokenException(Reason.EXPIRED);
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.plus(LEEWAY).isBefore(nbf.toInstant())) {
            throw new InvalidIdTokenException(Reason.NOT_YET_VALID);
        }
        Date iat = claims.getIssueTime();
        if (iat == null) {
            throw new InvalidIdTokenException(Reason.MALFORMED);
        }
        if (now.plus(LEEWAY).isBefore(iat.toInstant())) {
            throw new InvalidIdTokenException(Reason.ISSUED_IN_FUTURE);
        }
        if (!expected.nonce().equals(claims.getClaim("nonce"))) {
            throw new InvalidIdTokenException(Reason.NONCE);
        }
        if (claims.getSubject() == null || claims.getSubject().isBlank()) {
            throw new InvalidIdTokenException(Reason.SUBJECT);
        }
    }
}
