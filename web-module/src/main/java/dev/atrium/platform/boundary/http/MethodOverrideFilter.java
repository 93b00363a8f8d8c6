package dev.atrium.platform.boundary.http;

import java.util.Locale;
import java.util.Set;

import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.platform.error.BusinessException;

/** Clients limited to GET and POST send POST with {@code X-HTTP-Method-Override: PUT|PATCH|DELETE}. */
@Provider
@PreMatching
@Priority(FilterOrder.METHOD_OVERRIDE)
public class MethodOverrideFilter implements ContainerRequestFilter {

    static final String HEADER = "X-HTTP-Method-Override";
    private static final Set<String> OVERRIDABLE = Set.of("PUT", "PATCH", "DELETE");

    @Override
    public void filter(ContainerRequestContext request) {
        String override = request.getHeaderString(HEADER);
        if (override == null || override.isBlank()) {
            return;
        }
        if (!"POST".equals(request.getMethod())) {
            throw BusinessException.badRequest(HEADER + " is only accepted on POST");
        }
        String method = override.trim().toUpperCase(Locale.ROOT);
        if (!OVERRIDABLE.contains(method)) {
            throw BusinessException.badRequest(HEADER + " must be PUT, PATCH or DELETE");
        }
        request.setMethod(method);
    }
}
