package dev.atrium.platform.boundary.http;

import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.inject.Inject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ejb.EJBException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonInput;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * The one place where failures become HTTP answers in the error envelope. Unexpected failures are logged with the
 * request id and answered 500 without any internal detail.
 */
@Provider
@ApplicationScoped
public class ErrorMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(ErrorMapper.class.getName());
    /** Seconds a client should wait before retrying when a backing service is away. */
    static final String RETRY_AFTER_SECONDS = "5";
    static final String UNAVAILABLE_MESSAGE = "Service temporarily unavailable";
    static final String UNAVAILABLE_DETAILS = "A backing service does not answer; try again later";
    /** The failure this request's log line was written for. */
    static final String LOGGED = "atrium.error-logged";

    @Inject
    HttpServletRequest request;

    @Override
    public Response toResponse(Throwable thrown) {
        Throwable t = unwrap(thrown);
        if (t instanceof BusinessException b) {
            var builder = envelope(b.problem().status(), ErrorResponse.of(b.problem(), b.getMessage(), b.details()));
            b.headers().forEach(builder::header);
            if (b.problem().status() == 401) {
                builder.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
            }
            return builder.build();
        }
        if (t instanceof ConstraintViolationException cve) {
            return envelope(422, ErrorResponse.of(Problem.VALIDATION, "Request validation failed",
                    describe(cve))).build();
        }
        if (t instanceof ValidationException) {
            return serverError(t);
        }
        var storeDown = KeyValueStoreException.behind(t).orElse(null);
        if (storeDown != null) {
            return unavailable(storeDown);
        }
        if (JsonInput.isMalformed(t)) {
            // the parser's message may quote the body: the failure's kind is enough
            LOG.log(Level.FINE, () -> "Malformed JSON in request " + RequestIds.of(request) + " ("
                    + t.getClass().getSimpleName() + ")");
            BusinessException malformed = JsonInput.malformed();
            return envelope(400, ErrorResponse.of(malformed.problem(), malformed.getMessage(), malformed.details()))
                    .build();
        }
        if (t instanceof NotAcceptableException) {
            // the spec answers an unsupported requested format with 415
            return envelope(415, ErrorResponse.of(Problem.UNSUPPORTED_MEDIA_TYPE, "Requested format unsupported",
                    "This API answers application/json")).build();
        }
        if (t instanceof WebApplicationException w) {
            int status = w.getResponse().getStatus();
            if (status >= 500) {
                return serverError(t);
            }
            var builder = envelope(status, ErrorResponse.of(Problem.forStatus(status), StatusTexts.of(status), null));
            var allow = w.getResponse().getHeaderString(HttpHeaders.ALLOW);
            if (allow != null) {
                builder.header(HttpHeaders.ALLOW, allow);
            }
            return builder.build();
        }
        return serverError(t);
    }

    /** The key-value store (Redis) is away: the request may succeed later, so 503 with Retry-After, never 500. */
    private Response unavailable(KeyValueStoreException e) {
        if (firstLook(e)) {
            LOG.warning(() -> "Key-value store unavailable in request " + RequestIds.of(request) + ": "
                    + e.getMessage());
        }
        return envelope(503, ErrorResponse.of(Problem.UNAVAILABLE, UNAVAILABLE_MESSAGE, UNAVAILABLE_DETAILS))
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).build();
    }

    private Response serverError(Throwable t) {
        if (firstLook(t)) {
            LOG.log(Level.SEVERE, "Unexpected failure in request " + RequestIds.of(request), t);
        }
        return envelope(500, ErrorResponse.of(Problem.INTERNAL, StatusTexts.of(500), null)).build();
    }

    /**
     * Whether this failure is new to the request. Jersey's mapper for {@code EJBException}s asks this mapper twice for
     * the same failure (whether it maps it, then its answer), and a failure is logged once.
     */
    private boolean firstLook(Throwable failure) {
        if (request == null) {
            return true;
        }
        if (request.getAttribute(LOGGED) == failure) {
            return false;
        }
        request.setAttribute(LOGGED, failure);
        return true;
    }

    static Response.ResponseBuilder envelope(int status, ErrorResponse body) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body);
    }

    private static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof EJBException || current instanceof CompletionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        if (current instanceof EJBException ejb && ejb.getCausedByException() != null) {
            current = ejb.getCausedByException();
        }
        // a business answer thrown where a library wraps it (a body limit hit inside a JSON or multipart reader)
        int hops = 0;
        for (Throwable c = current; c != null && hops < 32; c = c.getCause(), hops++) {
            if (c instanceof BusinessException) {
                return c;
            }
        }
        return current;
    }

    public static String describe(ConstraintViolationException e) {
        return e.getConstraintViolations().stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> field(v) + ": " + v.getMessage())
                .distinct()
                .collect(Collectors.joining("; "));
    }

    /** The JSON name of the violated field: the last path node, in snake_case. */
    private static String field(ConstraintViolation<?> v) {
        String last = null;
        for (var node : v.getPropertyPath()) {
            if (node.getName() != null) {
                last = node.getName();
            }
        }
        if (last == null || last.startsWith("arg")) {
            return "body";
        }
        return last.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
