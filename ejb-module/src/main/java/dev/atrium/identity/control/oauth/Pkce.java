package dev.atrium.identity.control.oauth;

import com.nimbusds.oauth2.sdk.pkce.CodeChallenge;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;

/**
 * Proof Key for Code Exchange (RFC 7636), through Nimbus, with the S256 method only: {@code plain} would hand the
 * verifier to anyone who sees the authorization request.
 */
public final class Pkce {

    public static final CodeChallengeMethod METHOD = CodeChallengeMethod.S256;

    private Pkce() {
    }

    /** 32 random bytes, base64url: 43 characters, the shortest verifier the RFC allows. */
    public static String newVerifier() {
        return new CodeVerifier().getValue();
    }

    /** {@code BASE64URL(SHA256(ASCII(verifier)))}, unpadded: what the authorization request carries. */
    public static String challenge(String verifier) {
        return CodeChallenge.compute(METHOD, new CodeVerifier(verifier)).getValue();
    }
}
