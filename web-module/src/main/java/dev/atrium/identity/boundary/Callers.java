package dev.atrium.identity.boundary;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.identity.control.Caller;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStoreException;

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

    /**
     * Throws when the request presented a credential the mechanism refused (401 with its reason) or could not check
     * because the key-value store is away (the store's failure, a 503).
     */
    public static void refuseBadCredential(HttpServletRequest request) {
        if (request.getAttribute(AtriumAuthenticationMechanism.UNAVAILABLE) instanceof KeyValueStoreException e) {
            throw e;
        }
        Object failure = request.getAttribute(AtriumAuthenticationMechanism.FAILURE);
        if (failure != null) {
            throw BusinessException.unauthenticated(failure.toString());
        }
    }
}
