package dev.atrium.identity.control.oauth;

import java.util.Locale;

/** An ID token that fails a check of OpenID Connect Core 3.1.3.7; the reason is safe to show. */
public class InvalidIdTokenException extends Exception {

    private static final long serialVersionUID = 1L;

    public enum Reason {
        MALFORMED, ALGORITHM, UNKNOWN_KEY, SIGNATURE, ISSUER, AUDIENCE, AUTHORIZED_PARTY, EXPIRED, NOT_YET_VALID,
        ISSUED_IN_FUTURE, NONCE, SUBJECT
    }

    private final Reason reason;

    public InvalidIdTokenException(Reason reason) {
        super(reason.name().toLowerCase(Locale.ROOT), null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
