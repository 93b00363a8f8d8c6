package dev.atrium.identity.boundary.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import javax.security.auth.Subject;
import javax.security.auth.callback.Callback;

import jakarta.ejb.EJBException;
import jakarta.security.auth.message.AuthException;
import jakarta.security.auth.message.AuthStatus;
import jakarta.security.auth.message.MessageInfo;
import jakarta.security.auth.message.callback.CallerPrincipalCallback;
import jakarta.security.auth.message.callback.GroupPrincipalCallback;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.CallerPrincipal;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.login.Authenticator;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.http.CallerKeys;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStoreException;

/** The authentication module's side of the container's protocol, with the credential checks stubbed. */
class AtriumAuthModuleTest {

    private static final String GOOD = "eyGood.token.here";
    private static final Caller ALICE = new Caller(7, "alice", "alice@atrium.test", "user", Set.of("user", "editor"),
            Set.of(), "jwt", "jti-7", null, GOOD, null);

    private final AtomicInteger bearerChecks = new AtomicInteger();
    private RuntimeException bearerFailure;
    private final List<Callback> told = new ArrayList<>();
    private AtriumAuthModule module;

    @BeforeEach
    void setUp() {
        var mechanism = new AtriumAuthenticationMechanism();
        mechanism.authenticator = new Authenticator() {
            @Override
            public Caller bearer(String credential) {
                bearerChecks.incrementAndGet();
                if (bearerFailure != null) {
                    throw bearerFailure;
                }
                if (!GOOD.equals(credential)) {
                    throw BusinessException.unauthenticated("Invalid or expired token");
                }
                return ALICE;
            }

            @Override
            public Optional<Caller> session(String sessionId, RequestOrigin origin) {
                return "s-good".equals(sessionId) && "10.1.2.3".equals(origin.ipAddress())
                        ? Optional.of(ALICE) : Optional.empty();
            }
        };
        mechanism.addresses = new ClientAddress();
        module = new AtriumAuthModule(mechanism);
        module.initialize(null, null, callbacks -> told.addAll(List.of(callbacks)), Map.of());
    }

    @Test
    void whenTheBearerTokenIsGoodThenTheContainerLearnsTheCallerAndGroups() throws AuthException {
        var request = request(Map.of("Authorization", "Bearer " + GOOD), null);
        var client = new Subject();

        assertThat(module.validateRequest(message(request), client, null)).isEqualTo(AuthStatus.SUCCESS);

        assertThat(told).hasSize(2);
        var principal = ((CallerPrincipalCallback) told.get(0)).getPrincipal();
        assertThat(principal).isInstanceOf(CallerPrincipal.class);
        assertThat(((CallerPrincipal) principal).caller()).isSameAs(ALICE);
        assertThat(((CallerPrincipalCallback) told.get(0)).getSubject()).isSameAs(client);
        assertThat(((GroupPrincipalCallback) told.get(1)).getGroups()).containsExactlyInAnyOrder("user", "editor");
        assertThat(request.getAttribute(AtriumAuthenticationMechanism.CALLER)).isSameAs(ALICE);
        assertThat(request.getAttribute(CallerKeys.ATTRIBUTE)).isEqualTo("user:7");
    }

    @Test
    void whenTheContainerAsksAgainInTheSameRequestThenTheTokenIsCheckedOnce() throws AuthException {
        var request = request(Map.of("Authorization", "Bearer " + GOOD), null);

        module.validateRequest(message(request), new Subject(), null);
        module.validateRequest(message(request), new Subject(), null);

        assertThat(bearerChecks).hasValue(1);
        assertThat(told).hasSize(4);
        assertThat(((CallerPrincipal) ((CallerPrincipalCallback) told.get(2)).getPrincipal()).caller()).isSameAs(ALICE);
    }

    @Test
    void whenThereIsNoCredentialThenTheRequestGoesOnAnonymously() throws AuthException {
        var request = request(Map.of(), null);

        assertThat(module.validateRequest(message(request), new Subject(), null)).isEqualTo(AuthStatus.SUCCESS);

        assertThat(told).singleElement().isInstanceOfSatisfying(CallerPrincipalCallback.class,
                c -> assertThat(c.getPrincipal()).isNull());
        assertThat(request.getAttribute(AtriumAuthenticationMechanism.FAILURE)).isNull();
    }

    @Test
    void whenTheSessionCookieIsGoodThenTheContainerLearnsTheCaller() throws AuthException {
        var request = request(Map.of(), new Cookie(AtriumAuthenticationMechanism.SESSION_COOKIE, "s-good"));

        module.validateRequest(message(request), new Subject(), null);

        assertThat(((CallerPrincipal) ((CallerPrincipalCallback) told.get(0)).getPrincipal()).caller()).isSameAs(ALICE);
    }

    /** Refused here means marked for the credential filter's 401; the module itself never refuses. */
    @Test
    void whenTheCredentialIsRefusedThenTheRequestIsMarkedAndGoesOnAnonymously() throws AuthException {
        var cases = Map.of(
                "Bearer eyForged.token.x", "Invalid or expired token",
                "Basic YWxpY2U6c2VjcmV0", "Unsupported authorization scheme: use Bearer",
                "Bearer atd_dependency", "A dependency token is accepted by POST /v1/agents/{id}/invoke only");
        for (var header : cases.entrySet()) {
            told.clear();
            var request = request(Map.of("Authorization", header.getKey()), null);

            assertThat(module.validateRequest(message(request), new Subject(), null))
                    .as(header.getKey()).isEqualTo(AuthStatus.SUCCESS);

            assertThat(request.getAttribute(AtriumAuthenticationMechanism.FAILURE)).isEqualTo(header.getValue());
            assertThat(told).singleElement().isInstanceOfSatisfying(CallerPrincipalCallback.class,
                    c -> assertThat(c.getPrincipal()).isNull());
        }
    }

    @Test
    void whenTheStoreIsDownThenTheRequestIsMarkedUnavailableAndGoesOnAnonymously() throws AuthException {
        bearerFailure = new EJBException(new KeyValueStoreException("Redis GET failed"));
        var request = request(Map.of("Authorization", "Bearer " + GOOD), null);

        assertThat(module.validateRequest(message(request), new Subject(), null)).isEqualTo(AuthStatus.SUCCESS);

        assertThat(request.getAttribute(AtriumAuthenticationMechanism.UNAVAILABLE))
                .isInstanceOf(KeyValueStoreException.class);
        assertThat(((CallerPrincipalCallback) told.get(0)).getPrincipal()).isNull();
    }

    @Test
    void whenTheCheckFailsForAnyOtherReasonThenTheContainerIsToldWithTheCause() {
        bearerFailure = new IllegalStateException("bug");
        var request = request(Map.of("Authorization", "Bearer " + GOOD), null);

        assertThatThrownBy(() -> module.validateRequest(message(request), new Subject(), null))
                .isInstanceOf(AuthException.class).hasCauseReference(bearerFailure);
        assertThat(told).isEmpty();
    }

    @Test
    void whenTheCallerHasNoGroupsThenOnlyThePrincipalIsTold() throws AuthException {
        var loner = new Caller(8, "bob", "bob@atrium.test", "user", Set.of(), Set.of(), "jwt", "jti-8", null, "x",
                null);
        var request = request(Map.of(), null);
        request.setAttribute(AtriumAuthenticationMechanism.CALLER, loner);

        module.validateRequest(message(request), new Subject(), null);

        assertThat(told).singleElement().isInstanceOf(CallerPrincipalCallback.class);
    }

    @Test
    void whenTheMessageIsNotHttpThenTheModuleRefusesIt() {
        var message = message(null);

        assertThatThrownBy(() -> module.validateRequest(message, new Subject(), null))
                .isInstanceOf(AuthException.class);
    }

    @Test
    void whenTheSubjectIsCleanedThenItsPrincipalsGo() throws AuthException {
        var client = new Subject();
        client.getPrincipals().add(new CallerPrincipal(ALICE));

        module.cleanSubject(message(null), client);

        assertThat(client.getPrincipals()).isEmpty();
        assertThat(module.secureResponse(message(null), null)).isEqualTo(AuthStatus.SEND_SUCCESS);
        assertThat(module.getSupportedMessageTypes()).hasSize(2);
    }

    /** Whatever the header holds, the module answers SUCCESS, a caller only for the good token. */
    @Test
    void whenAuthorizationHeadersAreRandomThenNoneLogsInAndNoneFails() throws AuthException {
        var random = new Random(20261128);
        String[] prefixes = {"Bearer ", "bearer ", "BEARER", "Bearer atd_", "Bearer ey", "Basic ", "", " "};
        for (int i = 0; i < 2_000; i++) {
            told.clear();
            var value = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
            for (int n = random.nextInt(40); n > 0; n--) {
                value.append((char) (random.nextInt(4) == 0 ? random.nextInt(0x3000) : 32 + random.nextInt(95)));
            }
            var request = request(Map.of("Authorization", value.toString()), null);

            assertThat(module.validateRequest(message(request), new Subject(), null)).isEqualTo(AuthStatus.SUCCESS);

            var principal = ((CallerPrincipalCallback) told.get(0)).getPrincipal();
            if (value.toString().equals("Bearer " + GOOD)) {
                assertThat(principal).isNotNull();
            } else {
                assertThat(principal).as(value.toString()).isNull();
            }
        }
    }

    private static HttpServletRequest request(Map<String, String> headers, Cookie cookie) {
        var attributes = new HashMap<String, Object>();
        return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getCookies" -> cookie == null ? null : new Cookie[] {cookie};
                    case "getRemoteAddr" -> "10.1.2.3";
                    case "getRequestURI" -> "/api/v1/articles";
                    case "getContextPath" -> "";
                    case "getMethod" -> "GET";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static MessageInfo message(HttpServletRequest request) {
        return new MessageInfo() {
            @Override
            public Object getRequestMessage() {
                return request;
            }

            @Override
            public Object getResponseMessage() {
                return null;
            }

            @Override
            public void setRequestMessage(Object message) {
            }

            @Override
            public void setResponseMessage(Object message) {
            }

            @Override
            @SuppressWarnings({"rawtypes", "unchecked"})
            public Map getMap() {
                return new HashMap<>();
            }
        };
    }
}
