package dev.atrium.platform.error;

import java.util.Map;

import jakarta.ejb.ApplicationException;

/**
 * The one exception every context throws for an expected failure. It carries a {@link Problem} and a message
 * safe to show to the caller; the boundary's exception mapper turns it into the error envelope.
 */
@ApplicationException(rollback = true)
public class BusinessException extends RuntimeException {

    private final Problem problem;
    private final String details;
    private final transient Map<String, String> headers;

    public BusinessException(Problem problem, String message) {
        this(problem, message, null, Map.of());
    }

    public BusinessException(Problem problem, String message, String details) {
        this(problem, message, details, Map.of());
    }

    public BusinessException(Problem problem, String message, String details, Map<String, String> headers) {
        super(message, null, false, false);
        this.problem = problem;
        this.details = details;
        this.headers = Map.copyOf(headers);
    }

    public Problem problem() {
        return problem;
    }

    public String details() {
        return details;
    }

    /** Response headers the answer must carry, for example {@code Retry-After} or rate-limit headers. */
    public Map<String, String> headers() {
        return headers;
    }

    public static BusinessException notFound(String what) {
        return new BusinessException(Problem.NOT_FOUND, what + " not found");
    }

    public static BusinessException validation(String message) {
        return new BusinessException(Problem.VALIDATION, "Request validation failed", message);
    }

    public static BusinessException forbidden(String message) {
        return new BusinessException(Problem.FORBIDDEN, message);
    }

    public static BusinessException conflict(String message) {
        return new BusinessException(Problem.CONFLICT, message);
    }

    public static BusinessException badRequest(String message) {
        return new BusinessException(Problem.BAD_REQUEST, message);
    }

    public static BusinessException unauthenticated(String message) {
        return new BusinessException(Problem.UNAUTHENTICATED, message);
    }
}
