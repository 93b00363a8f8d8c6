package dev.atrium.identity.boundary;

import jakarta.annotation.Priority;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.atrium.identity.control.Authenticator;
import dev.atrium.identity.control.Caller;
import dev.atrium.platform.boundary.CallerKeys;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * The one authentication mechanism of the platform (DESIGN decision 3). It reads {@code Authorization: Bearer}
 * (HS256 access tokens, RS256 SSO tokens) or the {@code session_id} cookie, and hands the container the caller's
 * name and groups. A request without credentials goes on anonymously; a bad bearer credential is marked, and the
 * credential filter answers it 401 in the error envelope; a stale session cookie is simply no session. An agent's
 * dependency token ({@code atd_…}) is no login at all: on {@code POST /v1/agents/{id}/invoke} it is handed to the
 * invoke resource as {@link #DEPENDENCY_TOKEN} (the request stays anonymous), anywhere else it is refused.
 */
@ApplicationScoped
// In the EAR, the reports module's MicroProfile JWT mechanism is a bean visible to this WAR too; as an enabled
// alternative this one is chosen here, while the reports module, which cannot see it, keeps its own.
@Alternative
@Priority(Interceptor.Priority.APPLICATION)
public class AtriumAuthenticationMechanism implements HttpAuthenticationMechanism {

    public static final String CALLER = "atrium.caller";
    public static final String FAILURE = "atrium.auth.failure";
    /** The key-value store failed while checking the credential (Redis away); the credential filter answers 503. */
    public static final String UNAVAILABLE = "atrium.auth.unavailable";
    public static final String SESSION_COOKIE = "session_id";
    /** The request attribute carrying an agent run's dependency token, set only on the invoke path. */
    public static final String DEPENDENCY_TOKEN = "atrium.dependency-token";
    static final String DEPENDENCY_PREFIX = "atd_";
    private static final java.util.regex.Pattern INVOKE_PATH = java.util.regex.Pattern.compile(
            "/v1/agents/[^/]+/invoke");

    @EJB
    Authenticator authenticator;

    @Inject
    ClientAddress addresses;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        // the container may ask more than once per request; verify once
        if (request.getAttribute(CALLER) instanceof Caller known) {
            return login(context, known);
        }
        if (request.getAttribute(FAILURE) != null || request.getAttribute(UNAVAILABLE) != null) {
            return context.doNothing();
        }
        try {
            return verify(request, context);
        } catch (RuntimeException e) {
            // revocations and sessions live in the store: without it no credential can be trusted or refused
            var storeDown = storeFailure(e);
            if (storeDown == null) {
                throw e;
            }
            request.setAttribute(UNAVAILABLE, storeDown);
            return context.doNothing();
        }
    }

    /** The store's failure behind {@code e}, also when an EJB wrapped it. */
    private static KeyValueStoreException storeFailure(Throwable e) {
        for (Throwable c = e; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof KeyValueStoreException store) {
                return store;
            }
        }
        return null;
    }

    private AuthenticationStatus verify(HttpServletRequest request, HttpMessageContext context) {
        String header = request.getHeader("Authorization");
        if (header != null && !header.isBlank()) {
            if (!header.regionMatches(true, 0, "Bearer", 0, 6)) {
                request.setAttribute(FAILURE, "Unsupported authorization scheme: use Bearer");
                return context.doNothing();
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
                return context.doNothing();
            }
            try {
                return remember(request, context, authenticator.bearer(credential));
            } catch (BusinessException e) {
                request.setAttribute(FAILURE, e.getMessage());
                return context.doNothing();
            }
        }
        String sessionId = sessionCookie(request);
        if (sessionId != null) {
            var caller = authenticator.session(sessionId, Origins.of(request, addresses));
            if (caller.isPresent()) {
                return remember(request, context, caller.get());
            }
        }
        return context.doNothing();
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

    private static AuthenticationStatus remember(HttpServletRequest request, HttpMessageContext context,
                                                 Caller caller) {
        request.setAttribute(CALLER, caller);
        // API-key callers are limited per key (spec 03), everyone else per user
        request.setAttribute(CallerKeys.ATTRIBUTE, "api_key".equals(caller.credentialKind())
                ? "key:" + caller.tokenId() : "user:" + caller.userId());
        return login(context, caller);
    }

    private static AuthenticationStatus login(HttpMessageContext context, Caller caller) {
        return context.notifyContainerAboutLogin(new CallerPrincipal(caller), caller.groups());
    }
}
