package dev.atrium.identity.boundary;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.identity.control.Caller;
import dev.atrium.platform.error.BusinessException;

/** The caller of the current request, as the authentication mechanism left it. */
public final class Callers {

    private Callers() {
    }

    public static Optional<Caller> current(HttpServletRequest request) {
        return request.getAttribute(AtriumAuthenticationMechanism.CALLER) instanceof Caller c
                ? Optional.of(c) : Optional.empty();
    }

    public static Caller required(HttpServletRequest request) {
        return current(request).orElseThrow(() -> BusinessException.unauthenticated("Authentication required"));
    }
}
