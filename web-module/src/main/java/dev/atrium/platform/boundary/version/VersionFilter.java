package dev.atrium.platform.boundary.version;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.platform.boundary.http.FilterOrder;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** Applies the configured deprecations: headers while a version is deprecated, 410 once it is retired. */
@Provider
@ApplicationScoped
@PreMatching
@Priority(FilterOrder.VERSIONING)
public class VersionFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH).withZone(ZoneOffset.UTC);
    private static final Pattern REPEATED_SLASHES = Pattern.compile("/{2,}");

    private static final String PROPERTY = "atrium.deprecation";

    @Inject
    ApiVersions versions;

    @Inject
    Clock clock;

    @Override
    public void filter(ContainerRequestContext request) {
        String path = "/" + request.getUriInfo().getPath();
        var deprecation = versions.find(REPEATED_SLASHES.matcher(path).replaceAll("/"));
        if (deprecation.isEmpty()) {
            return;
        }
        var d = deprecation.get();
        String successor = d.successorFor(path);
        if (!clock.instant().isBefore(d.sunset())) {
            throw new BusinessException(Problem.GONE, "This API version has been retired",
                    "Use " + successor + " instead", Map.of("Link", link(successor)));
        }
        request.setProperty(PROPERTY, d);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(PROPERTY) instanceof ApiVersions.Deprecation d) {
            String path = "/" + request.getUriInfo().getPath();
            response.getHeaders().putSingle("Deprecation", "true");
            response.getHeaders().putSingle("Sunset", httpDate(d.sunset()));
            response.getHeaders().add("Link", link(d.successorFor(path)));
        }
    }

    /**
     * An IMF-fixdate (RFC 9110): always a two-digit day, which Java's {@code RFC_1123_DATE_TIME} does not write
     * ({@code Thu, 1 Jan 2099}).
     */
    static String httpDate(Instant instant) {
        return IMF_FIXDATE.format(instant);
    }

    private static String link(String successor) {
        return "<" + successor + ">; rel=\"successor-version\"";
    }
}
