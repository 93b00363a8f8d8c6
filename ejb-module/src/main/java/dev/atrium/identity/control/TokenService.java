package dev.atrium.identity.control;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import dev.atrium.identity.control.InvalidTokenException.Reason;

/**
 * Signs and verifies the tokens of spec 01: HS256 access, refresh and verification tokens, and RS256 SSO tokens
 * with the access-token claims. The key is picked by {@code kid} from the key ring, and the algorithm must be the
 * one of that key, so a token cannot choose how it is checked ({@code none}, or HS256 keyed with a public key).
 * Expiry is read from the application clock.
 */
@ApplicationScoped
public class TokenService {

    @Inject
    KeyRing keys;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "atrium.tokens.access-ttl-seconds", defaultValue = "900")
    long accessTtl;

    @Inject
    @ConfigProperty(name = "atrium.tokens.refresh-ttl-seconds", defaultValue = "604800")
    long refreshTtl;

    @Inject
    @ConfigProperty(name = "atrium.tokens.verify-ttl-seconds", defaultValue = "86400")
    long verifyTtl;

    @Inject
    @ConfigProperty(name = "atrium.base-url", defaultValue = "http://localhost:8080")
    String issuer;

    public Duration lifetime(TokenType type) {
        return Duration.ofSeconds(switch (type) {
            case ACCESS -> accessTtl;
            case REFRESH -> refreshTtl;
            case EMAIL_VERIFY -> verifyTtl;
        });
    }

    public String issuer() {
        return issuer.replaceAll("/+$", "");
    }

    /** A signed HS256 token for the user; {@code role} is put into access tokens only. */
    public String issue(TokenType type, long userId, String role) {
        var key = keys.currentHmac();
        return sign(claims(type, userId, role, lifetime(type)), JWSAlgorithm.HS256, key.kid(),
                macSigner(key.secret()));
    }

    /** An RS256 SSO token: the access-token claims, verifiable by anyone with the published JWKS. */
    public String issueSso(long userId, String role) {
        var key = keys.currentRsa();
        try {
            return sign(claims(TokenType.ACCESS, userId, role, lifetime(TokenType.ACCESS)), JWSAlgorithm.RS256,
                    key.getKeyID(), new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("Cannot sign SSO token", e);
        }
    }

    /** Verifies an HS256 token of the expected type. */
    public VerifiedToken verify(String token, TokenType expected) throws InvalidTokenException {
        return verify(token, expected, false);
    }

    /** Verifies an access token signed with HS256, or (when {@code acceptSso}) an RS256 SSO token. */
    public VerifiedToken verify(String token, TokenType expected, boolean acceptSso) throws InvalidTokenException {
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
        String kid = jwt.getHeader().getKeyID();
        JWSVerifier verifier;
        try {
            if (JWSAlgorithm.HS256.equals(alg)) {
                var key = keys.hmac(kid).orElseThrow(() -> new InvalidTokenException(Reason.UNKNOWN_KEY));
                verifier = new MACVerifier(key.secret());
            } else if (JWSAlgorithm.RS256.equals(alg) && acceptSso && expected == TokenType.ACCESS) {
                var key = keys.rsaPublic(kid).orElseThrow(() -> new InvalidTokenException(Reason.UNKNOWN_KEY));
                verifier = new RSASSAVerifier(key);
            } else {
                throw new InvalidTokenException(Reason.ALGORITHM);
            }
            if (!jwt.verify(verifier)) {
                throw new InvalidTokenException(Reason.SIGNATURE);
            }
        } catch (JOSEException e) {
            throw new InvalidTokenException(Reason.SIGNATURE);
        }
        Date exp = claims.getExpirationTime();
        if (exp == null || !clock.instant().isBefore(exp.toInstant())) {
            throw new InvalidTokenException(Reason.EXPIRED);
        }
        if (!expected.claim().equals(claims.getClaim("type"))) {
            throw new InvalidTokenException(Reason.WRONG_TYPE);
        }
        long userId;
        try {
            userId = Long.parseLong(claims.getSubject());
        } catch (NumberFormatException e) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        Object role = claims.getClaim("role");
        Date iat = claims.getIssueTime();
        return new VerifiedToken(userId, role instanceof String r ? r : null, expected, claims.getJWTID(),
                iat == null ? null : iat.toInstant(), exp.toInstant(), alg.getName(), token);
    }

    private JWTClaimsSet claims(TokenType type, long userId, String role, Duration lifetime) {
        Instant now = clock.instant();
        var claims = new JWTClaimsSet.Builder()
                .subject(Long.toString(userId))
                .issuer(issuer())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(lifetime)))
                .jwtID(UUID.randomUUID().toString())
                .claim("type", type.claim());
        if (type == TokenType.ACCESS) {
            claims.claim("role", role);
        }
        return claims.build();
    }

    private static String sign(JWTClaimsSet claims, JWSAlgorithm alg, String kid, JWSSigner signer) {
        var header = new JWSHeader.Builder(alg).type(JOSEObjectType.JWT).keyID(kid).build();
        var jwt = new SignedJWT(header, claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("Cannot sign token", e);
        }
        return jwt.serialize();
    }

    private static MACSigner macSigner(byte[] secret) {
        try {
            return new MACSigner(secret);
        } catch (JOSEException e) {
            throw new IllegalStateException("HS256 key too short", e);
        }
    }
}
