package dev.atrium.identity.boundary;

import java.util.Set;

import jakarta.annotation.Priority;
import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.identity.control.CsrfTokens;
import dev.atrium.platform.boundary.FilterOrder;
import dev.atrium.platform.error.BusinessException;

/**
 * A state-changing request authenticated by the session cookie must carry a valid, unused {@code X-CSRF-Token};
 * else 403. Bearer requests are exempt: a browser never adds that header on its own, so there is no ambient
 * credential to abuse. So are public operations that authenticate by what the request itself carries (a password,
 * a reset token): the cookie is not their credential. {@link CsrfProtected} marks the public ones that act on the
 * session anyway.
 */
@Provider
@ApplicationScoped
@Priority(FilterOrder.AUTHORIZATION + 50)
public class CsrfFilter implements ContainerRequestFilter {

    public static final String HEADER = "X-CSRF-Token";
    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    @Inject
    HttpServletRequest servletRequest;

    @Inject
    CsrfTokens tokens;

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (SAFE.contains(request.getMethod())) {
            return;
        }
        var method = resource.getResourceMethod();
        if (method != null && method.isAnnotationPresent(PermitAll.class)
                && !method.isAnnotationPresent(CsrfProtected.class)) {
            return;
        }
        Callers.current(servletRequest).filter(c -> c.bySession()).ifPresent(caller -> {
            if (!tokens.consume(request.getHeaderString(HEADER), caller.sessionId())) {
                throw BusinessException.forbidden("Missing, used or expired CSRF token: get one from GET "
                        + "/csrf-token and send it in " + HEADER);
            }
        });
    }
}
