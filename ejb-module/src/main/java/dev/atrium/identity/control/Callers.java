package dev.atrium.identity.control;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStoreException;

/** The caller of the current request, as the authentication mechanism left it. */
public final class Callers {

    /** The request attributes the authentication mechanism (web module) sets: the caller, or why there is none. */
    public static final String CALLER = "atrium.caller";
    public static final String FAILURE = "atrium.auth.failure";
    /** The key-value store failed while checking the credential (Redis away); the credential filter answers 503. */
    public static final String UNAVAILABLE = "atrium.auth.unavailable";
    /** The request attribute carrying an agent run's dependency token, set only on the invoke path. */
    public static final String DEPENDENCY_TOKEN = "atrium.dependency-token";

    private Callers() {
    }

    public static Optional<Caller> current(HttpServletRequest request) {
        return request.getAttribute(CALLER) instanceof Caller c
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
        if (request.getAttribute(UNAVAILABLE) instanceof KeyValueStoreException e) {
            throw e;
        }
        Object failure = request.getAttribute(FAILURE);
        if (failure != null) {
            throw BusinessException.unauthenticated(failure.toString());
        }
    }
}
