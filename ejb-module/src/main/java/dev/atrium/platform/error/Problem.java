package dev.atrium.platform.error;

/**
 * The stable error kinds of the platform: each has its HTTP status and the business code of the envelope.
 * Codes from spec 01 where one fits, otherwise the status times 100.
 */
public enum Problem {
    BAD_REQUEST(400, 40000),
    UNAUTHENTICATED(401, 40100),
    WRONG_CREDENTIALS(401, 10002),
    PAYMENT_REQUIRED(402, 30001),
    /** The marketplace's free tier is used up for the calendar month (spec 03 Free tier). */
    FREE_TIER_USED_UP(402, 40200),
    FORBIDDEN(403, 40300),
    ACCOUNT_DEACTIVATED(403, 10005),
    /** A review of an agent the caller used fewer than 3 times (spec 03's review eligibility). */
    REVIEW_NOT_ELIGIBLE(403, 40301),
    /** An agent called an agent its card does not declare as a dependency. */
    DEPENDENCY_NOT_DECLARED(403, 40302),
    NOT_FOUND(404, 40400),
    USER_NOT_FOUND(404, 10003),
    METHOD_NOT_ALLOWED(405, 40500),
    CONFLICT(409, 40900),
    EMAIL_REGISTERED(409, 10001),
    /** A call between agents that would reach an agent already in its chain, or go deeper than allowed. */
    DEPENDENCY_CHAIN(409, 40901),
    GONE(410, 41000),
    PAYLOAD_TOO_LARGE(413, 41300),
    UNSUPPORTED_MEDIA_TYPE(415, 41500),
    VALIDATION(422, 40001),
    ACCOUNT_LOCKED(423, 10004),
    RATE_LIMITED(429, 42900),
    /** A run used up the calls to its dependencies that one run may make. */
    DEPENDENCY_CALLS_USED_UP(429, 42901),
    INTERNAL(500, 50000),
    UPSTREAM(502, 50200),
    UNAVAILABLE(503, 50300),
    /** Spec 01's 30002: the payment processor did not answer a payment in time (a gateway timeout). */
    PAYMENT_TIMED_OUT(504, 30002);

    private final int status;
    private final int code;

    Problem(int status, int code) {
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public int code() {
        return code;
    }

    /** The kind a bare HTTP status stands for, when nothing more specific is known. */
    public static Problem forStatus(int status) {
        for (Problem p : values()) {
            if (p.status == status && p.code == status * 100) {
                return p;
            }
        }
        if (status == 422) {
            return VALIDATION;
        }
        return status >= 500 ? INTERNAL : BAD_REQUEST;
    }
}
