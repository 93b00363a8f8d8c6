package dev.atrium.identity.boundary.login;

import java.lang.reflect.Method;
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

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.identity.control.login.CsrfTokens;
import dev.atrium.platform.boundary.http.FilterOrder;
import dev.atrium.platform.error.BusinessException;

/**
 * A state-changing request authenticated by the session cookie must carry a valid, unused {@code X-CSRF-Token};
 * else 403. Bearer requests are exempt: a browser never adds that header on its own, so there is no ambient
 * credential to abuse. So are the public operations marked {@link CsrfExempt}, which authenticate by what the request
 * itself carries (a password, a reset token): the cookie is not their credential. Being public is no exemption: an
 * operation that accepts other credentials too (invoke takes a dependency token) still acts as the session's user.
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
        if (!needsToken(request.getMethod(), resource.getResourceMethod())) {
            return;
        }
        Callers.current(servletRequest).filter(c -> c.bySession()).ifPresent(caller -> {
            if (!tokens.consume(request.getHeaderString(HEADER), caller.sessionId())) {
                throw BusinessException.forbidden("Missing, used or expired CSRF token: get one from GET "
                        + "/csrf-token and send it in " + HEADER);
            }
        });
    }

    /** Whether a session-cookie request to this resource method needs a token: every change but the exempt ones. */
    static boolean needsToken(String httpMethod, Method resourceMethod) {
        if (SAFE.contains(httpMethod)) {
            return false;
        }
        return resourceMethod == null || !resourceMethod.isAnnotationPresent(PermitAll.class)
                || !resourceMethod.isAnnotationPresent(CsrfExempt.class);
    }
}
