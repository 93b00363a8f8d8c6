package dev.atrium.platform.boundary.http;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.operations.HealthResource;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.RateLimiter;

/**
 * Counts every API request against its caller's bucket and reports the bucket in {@code X-RateLimit-*} headers;
 * above the limit the answer is 429 with code 42900 and {@code Retry-After}. The health check is exempt so
 * probes of a load balancer never starve real callers. An authenticated {@code POST /v1/agents/{id}/invoke} is
 * counted by the invoke gateway's own limit (per user, whichever key or token) instead, so that this shared bucket
 * neither hides that limit nor is used up by invocations.
 */
@Provider
@ApplicationScoped
@PreMatching
@Priority(FilterOrder.RATE_LIMIT)
public class RateLimitFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String PROPERTY = "atrium.rate-limit";
    /** Spec 03's invoke, whose own limit per user the gateway applies (and reports in these headers). */
    private static final Pattern INVOKE = Pattern.compile("/v1/agents/[^/]+/invoke/?");
    private static final Duration WINDOW = Duration.ofSeconds(60);

    @Inject
    RateLimiter limiter;

    @Inject
    RateLimitRoutes routes;

    @Inject
    ClientAddress addresses;

    @Inject
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        String path = "/" + request.getUriInfo().getPath();
        if (HealthResource.PATHS.contains(path)) {
            return;
        }
        // an authenticated invoke counts against the invoke limit only, so this bucket can never answer for it
        if (servletRequest.getAttribute(CallerKeys.ATTRIBUTE) != null && "POST".equals(request.getMethod())
                && INVOKE.matcher(path).matches()) {
            return;
        }
        var route = routes.match(request.getMethod(), path);
        String caller = CallerKeys.of(servletRequest, addresses);
        var decision = limiter.hit(route.name() + "|" + caller, route.perMinute(), WINDOW);
        request.setProperty(PROPERTY, decision);
        if (!decision.allowed()) {
            throw new BusinessException(Problem.RATE_LIMITED, "Too many requests",
                    "At most " + decision.limit() + " requests per minute; retry in "
                            + decision.retryAfterSeconds() + " s",
                    Map.of("Retry-After", Long.toString(decision.retryAfterSeconds())));
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(PROPERTY) instanceof RateLimiter.Decision d) {
            headers(response, d);
        }
    }

    /** A stricter limit answered further in (login, quotas) has already set its own headers; those stay. */
    static void headers(ContainerResponseContext response, RateLimiter.Decision d) {
        var headers = response.getHeaders();
        if (headers.containsKey("X-RateLimit-Limit")) {
            return;
        }
        headers.putSingle("X-RateLimit-Limit", Integer.toString(d.limit()));
        headers.putSingle("X-RateLimit-Remaining", Long.toString(d.remaining()));
        headers.putSingle("X-RateLimit-Reset", Long.toString(d.resetEpochSeconds()));
    }
}
