package dev.atrium.identity.control.token;

import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.token.InvalidTokenException.Reason;
import dev.atrium.platform.BaseUrl;

/**
 * Signs and verifies the tokens of spec 01: HS256 access, refresh and verification tokens, and RS256 SSO tokens
 * with the access-token claims. Reading is Nimbus's {@link DefaultJWTProcessor}, with our rules around and inside
 * it: the shape before it; the key picked by {@code kid} from the key ring, the algorithm that of the key, so a token
 * cannot choose how it is checked ({@code none}, or HS256 keyed with a public key); expiry on the application clock.
 */
@ApplicationScoped
public class TokenService {

    /** The longest token read at all; ours are under a kilobyte (RS256 SSO tokens the longest). */
    public static final int MAX_LENGTH = 4096;
    private static final int MAX_KID_LENGTH = 64;
    private static final int OPAQUE_LENGTH = 43;
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Pattern COMPACT_JWS = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
    private static final Pattern OPAQUE = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern USER_ID = Pattern.compile("[1-9][0-9]{0,17}");
    private static final Logger LOG = Logger.getLogger(TokenService.class.getName());

    @Inject
    KeyRing keys;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @Inject
    BaseUrl baseUrl;

    private final DefaultJWTProcessor<Expected> reader = reader();

    /** What a read expects: the token's type, and whether an RS256 SSO token may stand for an access token. */
    private record Expected(TokenType type, boolean sso) implements SecurityContext {
    }

    /** A refusal by one of our claim checks, carried out of the processor with its reason. */
    private static final class Refused extends BadJWTException {
        private final Reason reason;

        Refused(Reason reason) {
            super(reason.name());
            this.reason = reason;
        }
    }

    /** No key for the token's {@code kid} and algorithm, carried out of the processor with its reason. */
    private static final class NoKey extends KeySourceException {
        private final Reason reason;

        NoKey(Reason reason) {
            super(reason.name());
            this.reason = reason;
        }
    }

    public Duration lifetime(TokenType type) {
        return Duration.ofSeconds(switch (type) {
            case ACCESS -> config.tokensAccessTtlSeconds;
            case REFRESH -> config.tokensRefreshTtlSeconds;
            case EMAIL_VERIFY -> config.tokensVerifyTtlSeconds;
        });
    }

    public String issuer() {
        return baseUrl.value();
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
    public String issueSso(long userId, String role, List<String> groups) {
        var key = keys.currentRsa();
        var claims = new JWTClaimsSet.Builder(claims(TokenType.ACCESS, userId, role, lifetime(TokenType.ACCESS)))
                .claim("groups", List.copyOf(groups)).build();
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
     * would pass it. Only what the encoder writes back of the decoded bytes is read: no impossible length, no unused
     * bit set.
     */
    static boolean canonical(String token) {
        for (String segment : token.split("\\.", -1)) {
            try {
                if (!BASE64URL.encodeToString(Base64.getUrlDecoder().decode(segment)).equals(segment)) {
                    return false;
                }
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return true;
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
        try {
            jwt = SignedJWT.parse(token);
            // the claims are read here too, so that whatever the library trips over is a malformed token
            jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        // we never set critical parameters (the verifiers would refuse them too, but as a bad signature)
        if (jwt.getHeader().getCriticalParams() != null) {
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        JWTClaimsSet claims;
        try {
            claims = reader.process(jwt, new Expected(expected, acceptSso && expected == TokenType.ACCESS));
        } catch (Refused e) {
            throw new InvalidTokenException(e.reason);
        } catch (NoKey e) {
            throw new InvalidTokenException(e.reason);
        } catch (BadJWSException | JOSEException e) {
            // a signature that does not verify, or that could not be checked with the key
            throw new InvalidTokenException(Reason.SIGNATURE);
        } catch (BadJOSEException e) {
            // the processor's own header rule: a typ other than JWT
            throw new InvalidTokenException(Reason.MALFORMED);
        }
        Object role = claims.getClaim("role");
        Date iat = claims.getIssueTime();
        return new VerifiedToken(Long.parseLong(claims.getSubject()), role instanceof String r ? r : null, expected,
                claims.getJWTID(), iat == null ? null : iat.toInstant(), claims.getExpirationTime().toInstant(),
                jwt.getHeader().getAlgorithm().getName(), jwt.getHeader().getKeyID(), token);
    }

    /**
     * Nimbus's reader, in its order: the header's {@code typ} (its default rule: JWT or none), the key, the
     * signature, the claims. The key and the claims are ours to choose and check.
     */
    private DefaultJWTProcessor<Expected> reader() {
        var reader = new DefaultJWTProcessor<Expected>();
        reader.setJWSKeySelector(this::keyFor);
        reader.setJWTClaimsSetVerifier(this::checkClaims);
        return reader;
    }

    /**
     * Our claims, in this order: {@code exp} a time not yet reached on the application clock (the one tests move),
     * {@code type} the expected one, {@code sub} a user id. Not {@code DefaultJWTClaimsVerifier}: it lets an
     * {@code exp} of null through, and refuses on an {@code nbf} we neither write nor read.
     */
    private void checkClaims(JWTClaimsSet claims, Expected expected) throws BadJWTException {
        Date exp = claims.getExpirationTime();
        if (exp == null || !clock.instant().isBefore(exp.toInstant())) {
            throw new Refused(Reason.EXPIRED);
        }
        if (!expected.type().claim().equals(claims.getClaim("type"))) {
            throw new Refused(Reason.WRONG_TYPE);
        }
        if (claims.getSubject() == null || !USER_ID.matcher(claims.getSubject()).matches()) {
            throw new Refused(Reason.MALFORMED);
        }
    }

    /**
     * The one key a token may be checked with: named by its {@code kid} on our ring, for the algorithm of that key.
     * The ring's own failures (its store down) are not the token's fault: they pass through as they are.
     */
    private List<Key> keyFor(JWSHeader header, Expected expected) throws KeySourceException {
        String kid = header.getKeyID();
        if (kid == null || kid.isEmpty() || kid.length() > MAX_KID_LENGTH) {
            throw new NoKey(Reason.UNKNOWN_KEY);
        }
        if (JWSAlgorithm.HS256.equals(header.getAlgorithm())) {
            var key = keys.hmac(kid).orElseThrow(() -> new NoKey(Reason.UNKNOWN_KEY));
            return List.of(new SecretKeySpec(key.secret(), "HmacSHA256"));
        }
        if (!JWSAlgorithm.RS256.equals(header.getAlgorithm()) || !expected.sso()) {
            throw new NoKey(Reason.ALGORITHM);
        }
        RSAKey key = keys.rsaPublic(kid).orElseThrow(() -> new NoKey(Reason.UNKNOWN_KEY));
        try {
            return List.of(key.toRSAPublicKey());
        } catch (JOSEException e) {
            // a key that cannot check the token: a signature that does not verify, as for a bad HS256 key
            throw new KeySourceException(e.getMessage(), e);
        }
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
