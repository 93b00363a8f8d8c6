package dev.atrium.identity.control.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import dev.atrium.identity.control.Hashes;

/**
 * Proof Key for Code Exchange (RFC 7636) with the S256 method only: {@code plain} would hand the verifier to anyone
 * who sees the authorization request.
 */
public final class Pkce {

    public static final String METHOD = "S256";

    private Pkce() {
    }

    /** 32 random bytes, base64url: 43 characters, the shortest verifier the RFC allows. */
    public static String newVerifier() {
        return Hashes.randomToken(32);
    }

    /** {@code BASE64URL(SHA256(ASCII(verifier)))}, unpadded. */
    public static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
