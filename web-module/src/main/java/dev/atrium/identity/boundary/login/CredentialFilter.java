package dev.atrium.identity.boundary.login;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.identity.control.Callers;
import dev.atrium.platform.boundary.http.FilterOrder;

/**
 * A request that presents a credential which fails verification is answered 401, whatever the path: a client
 * with an expired or revoked token learns so at once instead of silently acting anonymously. A credential that could
 * not be checked because the key-value store is away is answered 503 (by the error mapper), not 401 or 500.
 */
@Provider
@PreMatching
@ApplicationScoped
@Priority(FilterOrder.AUTHENTICATION)
public class CredentialFilter implements ContainerRequestFilter {

    @Inject
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        Callers.refuseBadCredential(servletRequest);
    }
}
