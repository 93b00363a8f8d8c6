package dev.atrium.identity.control;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

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

    /** The longest token read at all; ours are under a kilobyte (RS256 SSO tokens the longest). */
    public static final int MAX_LENGTH = 4096;
    private static final int MAX_KID_LENGTH = 64;
    private static final int OPAQUE_LENGTH = 43;
    private static final Pattern COMPACT_JWS = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
    private static final Pattern OPAQUE = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern USER_ID = Pattern.compile("[1-9][0-9]{0,17}");
    private static final Pattern TRAILING_SLASHES = Pattern.compile("/+$");
    private static final Logger LOG = Logger.getLogger(TokenService.class.getName());

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
        return TRAILING_SLASHES.matcher(issuer).replaceAll("");
    }

    /** A signed HS256 token for the user; {@code role} is put into access tokens only. */
    public String issue(TokenType type, long userId, String role) {
        var key = keys.currentHmac();
        return sign(claims(type, userId, role, lifetime(type)), JWSAlgorithm.HS256, key.kid(),
                macSigner(key.secret()));
    }

    /**
     * An RS256 SSO token: the access-token claims and the user's roles as {@code groups} (the claim MicroProfile JWT
     * maps to roles), verifiable by anyone with the published JWKS.
     */
    public String issueSso(long userId, String role, java.util.List<String> groups) {
        var key = keys.currentRsa();
        var claims = new JWTClaimsSet.Builder(claims(TokenType.ACCESS, userId, role, lifetime(TokenType.ACCESS)))
                .claim("groups", java.util.List.copyOf(groups)).build();
        try {
            return sign(claims, JWSAlgorithm.RS256, key.getKeyID(), new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("Cannot sign SSO token", e);
        }
    }

    /** Verifies an HS256 token of the expected type. */
    public VerifiedToken verify(String token, TokenType expected) throws InvalidTokenException {
        return verify(token, expected, false);
    }

    /**
     * The one reader of our signed tokens: an access token signed with HS256, or (when {@code acceptSso}) an RS256
     * SSO token. Whatever arrives (foreign, forged, oversized, odd headers or claims), the only failure is an
     * {@link InvalidTokenException}, logged as one line with its reason and never the token.
     */
    public VerifiedToken verify(String token, TokenType expected, boolean acceptSso) throws InvalidTokenException {
        try {
            return read(token, expected, acceptSso);
        } catch (InvalidTokenException e) {
            refused(expected.claim() + " token", e.reason());
            throw e;
        }
    }

    /**
     * Whether a token verified earlier would still verify now: unexpired, and its key still on the ring (a retired
     * key leaves it once every token it signed has expired, so this only refuses what an operator removed).
     */
    public boolean stillValid(VerifiedToken token) {
        if (!clock.instant().isBefore(token.expiresAt())) {
            return false;
        }
        return JWSAlgorithm.RS256.getName().equals(token.algorithm())
                ? keys.rsaPublic(token.keyId()).isPresent() : keys.hmac(token.keyId()).isPresent();
    }

    /**
     * The checks made before any lookup (blacklist, key ring): present, at most {@link #MAX_LENGTH} characters,
     * three base64url segments, each in its one canonical spelling. Ours are well under a kilobyte, so anything
     * larger is refused unread.
     */
    public static void checkShape(String token) throws InvalidTokenException {
        if (token == null || token.isEmpty()) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        if (token.length() > MAX_LENGTH) {
            throw new InvalidTokenException(Reason.TOO_LARGE);
        }
        if (!COMPACT_JWS.matcher(token).matches() || !canonical(token)) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
    }

    /**
     * Whether every segment is spelled as its bytes encode. A segment's last character may carry unused bits, so up to
     * sixteen spellings decode alike; the blacklist names a token by its spelling, so an alias of a revoked token
     * would pass it. Only the one spelling our encoder writes is read: no impossible length, no unused bit set.
     */
    static boolean canonical(String token) {
        int start = 0;
        for (int i = 0; i <= token.length(); i++) {
            if (i < token.length() && token.charAt(i) != '.') {
                continue;
            }
            int rest = (i - start) % 4;
            if (rest == 1) {
                return false;
            }
            if (rest > 1) {
                int last = sextet(token.charAt(i - 1));
                if ((last & (rest == 2 ? 0x0F : 0x03)) != 0) {
                    return false;
                }
            }
            start = i + 1;
        }
        return true;
    }

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '-' ? 62 : 63;
    }

    /**
     * Whether a one-time value we handed out (reset link, SSO ticket) could be ours: {@code prefix} and 43
     * base64url characters (32 random bytes). Anything else is refused before the store is asked, with one log line.
     */
    public boolean plausibleOpaque(String value, String prefix, String kind) {
        boolean plausible = value != null && value.length() == prefix.length() + OPAQUE_LENGTH
                && value.startsWith(prefix) && OPAQUE.matcher(value).region(prefix.length(), value.length()).matches();
        if (!plausible) {
            refused(kind, value != null && value.length() > MAX_LENGTH ? Reason.TOO_LARGE : Reason.MALFORMED);
        }
        return plausible;
    }

    private VerifiedToken read(String token, TokenType expected, boolean acceptSso) throws InvalidTokenException {
        checkShape(token);
        SignedJWT jwt;
        JWSHeader header;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            header = jwt.getHeader();
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        // we never set critical parameters, and any other type than JWT is not one of ours
        if (header.getCriticalParams() != null
                || header.getType() != null && !JOSEObjectType.JWT.equals(header.getType())) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        JWSAlgorithm alg = header.getAlgorithm();
        String kid = header.getKeyID();
        if (kid == null || kid.isEmpty() || kid.length() > MAX_KID_LENGTH) {
            throw new InvalidTokenException(Reason.UNKNOWN_KEY);
        }
        // the key ring's own failures (its store down) are not the token's fault: they are not caught here
        boolean sso = JWSAlgorithm.RS256.equals(alg) && acceptSso && expected == TokenType.ACCESS;
        if (!JWSAlgorithm.HS256.equals(alg) && !sso) {
            throw new InvalidTokenException(Reason.ALGORITHM);
        }
        var hmacKey = sso ? null : keys.hmac(kid).orElseThrow(() -> new InvalidTokenException(Reason.UNKNOWN_KEY));
        var rsaKey = sso ? keys.rsaPublic(kid).orElseThrow(() -> new InvalidTokenException(Reason.UNKNOWN_KEY)) : null;
        try {
            JWSVerifier verifier = sso ? new RSASSAVerifier(rsaKey) : new MACVerifier(hmacKey.secret());
            if (!jwt.verify(verifier)) {
                throw new InvalidTokenException(Reason.SIGNATURE);
            }
        } catch (JOSEException | RuntimeException e) {
            throw new InvalidTokenException(Reason.SIGNATURE);
        }
        try {
            return claimsOf(claims, expected, alg, kid, token);
        } catch (RuntimeException e) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
    }

    private VerifiedToken claimsOf(JWTClaimsSet claims, TokenType expected, JWSAlgorithm alg, String kid, String token)
            throws InvalidTokenException {
        Date exp = claims.getExpirationTime();
        if (exp == null || !clock.instant().isBefore(exp.toInstant())) {
            throw new InvalidTokenException(Reason.EXPIRED);
        }
        if (!expected.claim().equals(claims.getClaim("type"))) {
            throw new InvalidTokenException(Reason.WRONG_TYPE);
        }
        String subject = claims.getSubject();
        if (subject == null || !USER_ID.matcher(subject).matches()) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        Object role = claims.getClaim("role");
        Date iat = claims.getIssueTime();
        return new VerifiedToken(Long.parseLong(subject), role instanceof String r ? r : null, expected,
                claims.getJWTID(), iat == null ? null : iat.toInstant(), exp.toInstant(), alg.getName(), kid, token);
    }

    private static void refused(String kind, Reason reason) {
        // an expired token is ordinary life; anything else is worth one line, never with the token itself
        LOG.log(reason == Reason.EXPIRED ? Level.FINE : Level.INFO, () -> "Token refused (" + kind + "): " + reason);
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
