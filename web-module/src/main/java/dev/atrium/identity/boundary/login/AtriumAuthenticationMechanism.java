package dev.atrium.identity.boundary.login;

import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.login.Authenticator;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.http.CallerKeys;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * The one authentication mechanism of the platform (DESIGN decision 3). It reads {@code Authorization: Bearer}
 * (HS256 access tokens, RS256 SSO tokens) or the {@code session_id} cookie, and answers the caller, whose name and
 * groups {@link AtriumAuthModule} hands the container. A request without credentials goes on anonymously; a bad
 * bearer credential is marked, and the credential filter answers it 401 in the error envelope; a stale session
 * cookie is simply no session. An agent's
 * dependency token ({@code atd_…}) is no login at all: on {@code POST /v1/agents/{id}/invoke} it is handed to the
 * invoke resource as {@link #DEPENDENCY_TOKEN} (the request stays anonymous), anywhere else it is refused.
 */
@ApplicationScoped
public class AtriumAuthenticationMechanism {

    public static final String CALLER = Callers.CALLER;
    public static final String FAILURE = Callers.FAILURE;
    public static final String UNAVAILABLE = Callers.UNAVAILABLE;
    public static final String SESSION_COOKIE = "session_id";
    public static final String DEPENDENCY_TOKEN = Callers.DEPENDENCY_TOKEN;
    static final String DEPENDENCY_PREFIX = "atd_";
    private static final Pattern INVOKE_PATH = Pattern.compile(
            "/v1/agents/[^/]+/invoke");

    @EJB
    Authenticator authenticator;

    @Inject
    ClientAddress addresses;

    /** The caller the request's credential names; empty for an anonymous request or a refused credential. */
    public Optional<Caller> authenticate(HttpServletRequest request) {
        // the container may ask more than once per request; verify once
        if (request.getAttribute(CALLER) instanceof Caller known) {
            return Optional.of(known);
        }
        if (request.getAttribute(FAILURE) != null || request.getAttribute(UNAVAILABLE) != null) {
            return Optional.empty();
        }
        try {
            return verify(request);
        } catch (RuntimeException e) {
            // revocations and sessions live in the store: without it no credential can be trusted or refused
            var storeDown = KeyValueStoreException.behind(e).orElse(null);
            if (storeDown == null) {
                throw e;
            }
            request.setAttribute(UNAVAILABLE, storeDown);
            return Optional.empty();
        }
    }

    private Optional<Caller> verify(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header != null && !header.isBlank()) {
            if (!header.regionMatches(true, 0, "Bearer", 0, 6)) {
                request.setAttribute(FAILURE, "Unsupported authorization scheme: use Bearer");
                return Optional.empty();
            }
            String credential = header.substring(6).trim();
            if (credential.startsWith(DEPENDENCY_PREFIX)) {
                String path = request.getRequestURI().substring(request.getContextPath().length());
                if ("POST".equals(request.getMethod()) && INVOKE_PATH.matcher(path).matches()) {
                    request.setAttribute(DEPENDENCY_TOKEN, credential);
                } else {
                    request.setAttribute(FAILURE, "A dependency token is accepted by POST /v1/agents/{id}/invoke "
                            + "only");
                }
                return Optional.empty();
            }
            try {
                return Optional.of(remember(request, authenticator.bearer(credential)));
            } catch (BusinessException e) {
                request.setAttribute(FAILURE, e.getMessage());
                return Optional.empty();
            }
        }
        String sessionId = sessionCookie(request);
        if (sessionId != null) {
            return authenticator.session(sessionId, Origins.of(request, addresses)).map(c -> remember(request, c));
        }
        return Optional.empty();
    }

    static String sessionCookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (SESSION_COOKIE.equals(cookie.getName())) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }

    private static Caller remember(HttpServletRequest request, Caller caller) {
        request.setAttribute(CALLER, caller);
        // API-key callers are limited per key (spec 03), everyone else per user
        request.setAttribute(CallerKeys.ATTRIBUTE, "api_key".equals(caller.credentialKind())
                ? "key:" + caller.tokenId() : "user:" + caller.userId());
        return caller;
    }
}
