package dev.atrium.identity.control.token;

/** A token that does not verify; the reason is for logs and tests, never shown in detail to callers. */
public class InvalidTokenException extends Exception {

    public enum Reason { MALFORMED, ALGORITHM, UNKNOWN_KEY, SIGNATURE, EXPIRED, WRONG_TYPE, REVOKED, TOO_LARGE }

    private final Reason reason;

    public InvalidTokenException(Reason reason) {
        super(reason.name(), null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
