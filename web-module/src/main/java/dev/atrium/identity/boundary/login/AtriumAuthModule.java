package dev.atrium.identity.boundary.login;

import java.io.IOException;
import java.security.Principal;
import java.util.Map;

import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;

import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.MessagePolicy;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.auth.message.callback.GroupPrincipalCallback;
import jakarta.security.auth.message.module.ServerAuthModule;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.CallerPrincipal;

/**
 * The container's authentication module (Jakarta Authentication) for Atrium's WAR: it asks
 * {@link AtriumAuthenticationMechanism} for the request's caller and tells the container who it is, or that the
 * request goes on anonymously. Never refuses a request itself: a refused credential is answered 401 by
 * {@link CredentialFilter} in the error envelope, and access rules are the resources' own.
 * <p>A module of our own rather than a Jakarta Security {@code HttpAuthenticationMechanism}: Soteria's bridge to
 * such a mechanism looks the bean manager up through JNDI twice per request (building a {@code NamingException}
 * each time, found or not), about a tenth of the server's CPU for {@code /health} (docs/benchmarks.md, "Authentication
 * without Soteria's bridge").
 */
final class AtriumAuthModule implements ServerAuthModule {

    private static final Class<?>[] MESSAGE_TYPES = {HttpServletRequest.class, HttpServletResponse.class};

    private final AtriumAuthenticationMechanism mechanism;
    private CallbackHandler handler;

    AtriumAuthModule(AtriumAuthenticationMechanism mechanism) {
        this.mechanism = mechanism;
    }

    @Override
    public void initialize(MessagePolicy requestPolicy, MessagePolicy responsePolicy, CallbackHandler handler,
                           Map<String, Object> options) {
        this.handler = handler;
    }

    @Override
    public Class<?>[] getSupportedMessageTypes() {
        return MESSAGE_TYPES.clone();
    }

    @Override
    public AuthStatus validateRequest(MessageInfo message, Subject client, Subject service) throws AuthException {
        if (!(message.getRequestMessage() instanceof HttpServletRequest request)) {
            throw new AuthException("Not an HTTP request");
        }
        try {
            var caller = mechanism.authenticate(request);
            tell(client, caller.map(CallerPrincipal::new).orElse(null),
                    caller.map(AtriumAuthModule::groups).orElse(null));
            return AuthStatus.SUCCESS;
        } catch (RuntimeException failed) {
            // as the container's own modules do: it logs the failure and answers the request with an error
            var refused = new AuthException("Authentication failed: " + failed);
            refused.initCause(failed);
            throw refused;
        }
    }

    private static String[] groups(Caller caller) {
        return caller.groups().toArray(String[]::new);
    }

    /** A caller with its groups, or (no principal) an anonymous request. */
    private void tell(Subject client, Principal principal, String[] groups) throws AuthException {
        Callback[] callbacks = groups == null || groups.length == 0
                ? new Callback[] {new CallerPrincipalCallback(client, principal)}
                : new Callback[] {new CallerPrincipalCallback(client, principal),
                        new GroupPrincipalCallback(client, groups)};
        try {
            handler.handle(callbacks);
        } catch (IOException | UnsupportedCallbackException e) {
            var refused = new AuthException("The container refused the caller");
            refused.initCause(e);
            throw refused;
        }
    }

    @Override
    public AuthStatus secureResponse(MessageInfo message, Subject service) {
        return AuthStatus.SEND_SUCCESS;
    }

    @Override
    public void cleanSubject(MessageInfo message, Subject subject) {
        if (subject != null) {
            subject.getPrincipals().clear();
        }
    }
}
