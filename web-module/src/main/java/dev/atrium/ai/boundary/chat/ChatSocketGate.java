package dev.atrium.ai.boundary.chat;

import java.io.IOException;
import java.security.Principal;

import jakarta.ejb.EJB;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.login.ApiKeyService;
import dev.atrium.identity.control.login.Authenticator;
import dev.atrium.platform.boundary.http.HttpPolicyFilter;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStoreException;

/**
 * Authenticates the chat WebSocket's handshake before anything is upgraded. A refused handshake is a plain HTTP
 * answer in the error envelope: 400 for an API key in the URL (even next to a good header), 401 without a valid
 * credential, 403 for another user's path or no {@code chat} permission, 503 when the key-value store cannot check
 * the credential. An admitted caller reaches the endpoint as the handshake's user principal ({@link Admitted}).
 * The credential is the {@code Authorization} header, which the container's authentication mechanism has verified
 * already, or else an access token in the {@code token} parameter; never the session cookie, which a browser would
 * send along on another site's WebSocket too. Refused in the handshake rather than by closing the upgraded
 * connection: Payara now and then loses the close frame of a connection the server closes just after its upgrade.
 */
@WebFilter(urlPatterns = ChatSocketGate.PATH + "*", asyncSupported = true, dispatcherTypes = DispatcherType.REQUEST)
public class ChatSocketGate extends HttpFilter {

    static final String PATH = "/ws/chat/";
    static final String API_KEY_IN_URL = "API keys are accepted only in the Authorization header";

    @EJB
    Authenticator authenticator;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Caller caller;
        try {
            caller = admit(request);
        } catch (BusinessException e) {
            HttpPolicyFilter.writeError(response, e);
            return;
        } catch (RuntimeException e) {
            KeyValueStoreException storeDown = KeyValueStoreException.behind(e).orElse(null);
            if (storeDown == null) {
                throw e;
            }
            HttpPolicyFilter.writeUnavailable(request, response, storeDown);
            return;
        }
        chain.doFilter(new AdmittedRequest(request, new Admitted(caller)), response);
    }

    private Caller admit(HttpServletRequest request) {
        String fromUrl = request.getParameter("token");
        if (fromUrl != null && fromUrl.startsWith(ApiKeyService.PREFIX)) {
            // a URL ends up in access logs and proxies: no long-lived key there, even next to a header
            throw BusinessException.badRequest(API_KEY_IN_URL);
        }
        String header = request.getHeader("Authorization");
        Caller caller = header != null && !header.isBlank() ? verifiedHeader(request)
                : authenticator.accessToken(fromUrl);
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!path.equals(PATH + caller.userId()) || !caller.has("chat")) {
            throw new BusinessException(Problem.FORBIDDEN, "Not allowed",
                    "The path's user id must be the caller's, with the chat permission");
        }
        return caller;
    }

    /** What the container's mechanism made of the header: with a header present it never looks at the cookie. */
    private static Caller verifiedHeader(HttpServletRequest request) {
        Callers.refuseBadCredential(request);
        return Callers.required(request);
    }

    /** The caller the handshake proved, as the WebSocket session's user principal; never prints the token. */
    record Admitted(Caller caller) implements Principal {

        @Override
        public String getName() {
            return Long.toString(caller.userId());
        }

        @Override
        public String toString() {
            return "Admitted[" + caller.userId() + "]";
        }
    }

    private static final class AdmittedRequest extends HttpServletRequestWrapper {
        private final Admitted admitted;

        AdmittedRequest(HttpServletRequest request, Admitted admitted) {
            super(request);
            this.admitted = admitted;
        }

        @Override
        public Principal getUserPrincipal() {
            return admitted;
        }
    }
}
