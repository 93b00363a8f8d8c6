package dev.atrium.platform.boundary.http;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.boundary.json.Json;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * The outermost layer of every request: assigns the request id, sets the security headers of spec 01, sends
 * plain-HTTP requests to HTTPS when that is required ({@link HttpsPolicy}), answers CORS from the configured
 * allow-list (never a wildcard), and logs requests slower than the threshold.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true, dispatcherTypes = DispatcherType.REQUEST)
public class HttpPolicyFilter extends HttpFilter {

    private static final Logger LOG = Logger.getLogger(HttpPolicyFilter.class.getName());

    static final String ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
    static final String ALLOWED_HEADERS =
            "Authorization, Content-Type, Idempotency-Key, X-CSRF-Token, X-HTTP-Method-Override, X-Request-ID";
    static final String EXPOSED_HEADERS = "X-Request-ID, X-RateLimit-Limit, X-RateLimit-Remaining, "
            + "X-RateLimit-Reset, Location, Deprecation, Sunset, Link, Retry-After";

    @Inject
    Config config;

    @Inject
    HttpsPolicy https;

    @Inject
    @ConfigProperties
    PlatformConfig platformConfig;

    private List<String> allowedOrigins = List.of();

    @Override
    public void init() {
        allowedOrigins = config.getOptionalValues("atrium.cors.origins", String.class).orElse(List.of()).stream()
                .map(String::trim).filter(o -> !o.isEmpty() && !o.equals("*")).toList();
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long started = System.nanoTime();
        String id = RequestIds.assign(request);
        response.setHeader(RequestIds.HEADER, id);
        response.setHeader("Content-Security-Policy",
                "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");

        if (https.enforce(request, response)) {
            return;
        }
        String origin = request.getHeader("Origin");
        if (origin != null && cors(request, response, origin)) {
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new SlowRequestListener(request, id, started));
            } else {
                logIfSlow(request, id, started);
            }
        }
    }

    /** {@code true} when the request was a preflight and has been answered. */
    private boolean cors(HttpServletRequest request, HttpServletResponse response, String origin)
            throws IOException {
        boolean allowed = allowedOrigins.stream().anyMatch(o -> o.equalsIgnoreCase(origin));
        boolean preflight = "OPTIONS".equals(request.getMethod())
                && request.getHeader("Access-Control-Request-Method") != null;
        response.addHeader("Vary", "Origin");
        if (!allowed) {
            if (preflight) {
                writeError(response, 403, Problem.FORBIDDEN, "Origin not allowed", origin);
                return true;
            }
            return false;
        }
        response.setHeader("Access-Control-Allow-Origin", origin);
        response.setHeader("Access-Control-Allow-Credentials", "true");
        if (!preflight) {
            response.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
            return false;
        }
        String method = request.getHeader("Access-Control-Request-Method");
        if (Arrays.stream(ALLOWED_METHODS.split(",\\s*")).noneMatch(m -> m.equals(method))) {
            writeError(response, 403, Problem.FORBIDDEN, "Method not allowed for cross-origin requests", method);
            return true;
        }
        response.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
        response.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
        response.setHeader("Access-Control-Max-Age", "600");
        response.setStatus(204);
        return true;
    }

    /** The envelope of a refusal made before JAX-RS, as {@link ErrorMapper} writes it: headers, and Bearer on 401. */
    public static void writeError(HttpServletResponse response, BusinessException refused) throws IOException {
        refused.headers().forEach(response::setHeader);
        if (refused.problem().status() == 401) {
            response.setHeader("WWW-Authenticate", "Bearer");
        }
        writeError(response, refused.problem().status(), refused.problem(), refused.getMessage(), refused.details());
    }

    /**
     * A credential the key-value store could not check, refused before JAX-RS as {@link ErrorMapper} refuses it: 503
     * with {@code Retry-After}, and one WARNING line naming the request.
     */
    public static void writeUnavailable(HttpServletRequest request, HttpServletResponse response,
                                        KeyValueStoreException e) throws IOException {
        LOG.warning(() -> "Key-value store unavailable in request " + RequestIds.of(request) + ": " + e.getMessage());
        response.setHeader("Retry-After", ErrorMapper.RETRY_AFTER_SECONDS);
        writeError(response, 503, Problem.UNAVAILABLE, ErrorMapper.UNAVAILABLE_MESSAGE,
                ErrorMapper.UNAVAILABLE_DETAILS);
    }

    static void writeError(HttpServletResponse response, int status, Problem problem, String message,
                           String details) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Json.write(ErrorResponse.of(problem, message, details)));
    }

    private void logIfSlow(HttpServletRequest request, String id, long started) {
        double seconds = (System.nanoTime() - started) / 1e9;
        if (seconds > platformConfig.httpSlowRequestSeconds) {
            LOG.warning(() -> String.format("Slow request %s: %s %s took %.2f s", id, request.getMethod(),
                    request.getRequestURI(), seconds));
        } else if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(String.format("Request %s: %s %s in %.3f s", id, request.getMethod(), request.getRequestURI(),
                    seconds));
        }
    }

    private final class SlowRequestListener implements AsyncListener {
        private final HttpServletRequest request;
        private final String id;
        private final long started;

        SlowRequestListener(HttpServletRequest request, String id, long started) {
            this.request = request;
            this.id = id;
            this.started = started;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            logIfSlow(request, id, started);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            logIfSlow(request, id, started);
        }

        @Override
        public void onError(AsyncEvent event) {
            logIfSlow(request, id, started);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }
    }
}
