package dev.atrium.sdk;

import java.util.Optional;

/**
 * A call the server refused or could not answer: the HTTP status and the server's error envelope ({@code code},
 * {@code message}, {@code details}). Subclasses name the cases a caller handles differently; a status none of them
 * names is an {@code AtriumException} itself.
 */
public class AtriumException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final int code;
    private final String details;

    public AtriumException(int status, int code, String message, String details) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    AtriumException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
        this.code = 0;
        this.details = null;
    }

    /** The HTTP status; 0 when no answer came (timeout, connection refused). */
    public int status() {
        return status;
    }

    /** The envelope's business code (for example 40001, 30001); 0 when the answer carried none. */
    public int code() {
        return code;
    }

    /** The envelope's details: which field, which limit. */
    public Optional<String> details() {
        return Optional.ofNullable(details);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[status=" + status + ", code=" + code + "]: " + getMessage()
                + (details == null ? "" : " (" + details + ")");
    }

    /** 401 or 403: the API key is missing, wrong, or may not do this. */
    public static final class Unauthorized extends AtriumException {
        private static final long serialVersionUID = 1L;

        public Unauthorized(int status, int code, String message, String details) {
            super(status, code, message, details);
        }
    }

    /** 404: no such agent (or not active). */
    public static final class NotFound extends AtriumException {
        private static final long serialVersionUID = 1L;

        public NotFound(int status, int code, String message, String details) {
            super(status, code, message, details);
        }
    }

    /** 400 or 422: the request or the agent's input is invalid; {@link #details()} names the fields. */
    public static final class InvalidRequest extends AtriumException {
        private static final long serialVersionUID = 1L;

        public InvalidRequest(int status, int code, String message, String details) {
            super(status, code, message, details);
        }
    }

    /** 402: the balance cannot pay for the call (code 30001), or the free tier is used up (code 40200). */
    public static final class PaymentRequired extends AtriumException {
        private static final long serialVersionUID = 1L;

        public PaymentRequired(int status, int code, String message, String details) {
            super(status, code, message, details);
        }
    }

    /** 429 or 503 after the client's retries: the server asked to wait longer than the client would. */
    public static final class Unavailable extends AtriumException {
        private static final long serialVersionUID = 1L;

        public Unavailable(int status, int code, String message, String details) {
            super(status, code, message, details);
        }
    }

    /** No answer within the client's timeout (30 s unless the builder says otherwise). */
    public static final class Timeout extends AtriumException {
        private static final long serialVersionUID = 1L;

        public Timeout(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The server could not be reached, or its answer could not be read. */
    public static final class Transport extends AtriumException {
        private static final long serialVersionUID = 1L;

        public Transport(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The server ran the agent, and the run did not succeed (it failed, timed out, hit a limit): the call itself was
     * answered with 200 and the run's record, which {@link #invocation()} carries.
     */
    public static final class RunFailed extends AtriumException {
        private static final long serialVersionUID = 1L;

        private final transient Invocation invocation;

        public RunFailed(Invocation invocation) {
            super(200, 0, "The run of " + invocation.agent() + " ended " + invocation.status()
                    + (invocation.errorText() == null ? "" : ": " + invocation.errorText()), null);
            this.invocation = invocation;
        }

        public Invocation invocation() {
            return invocation;
        }
    }
}
