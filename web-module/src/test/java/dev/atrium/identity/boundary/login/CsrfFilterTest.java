package dev.atrium.identity.boundary.login;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.marketplace.boundary.runtime.InvokeResource;

/**
 * Which session-cookie requests need a CSRF token: every change, public operations included, except those that
 * authenticate by what the request itself carries.
 */
class CsrfFilterTest {

    private static Method method(Class<?> type, String name, Class<?>... parameters) throws NoSuchMethodException {
        return type.getMethod(name, parameters);
    }

    @Test
    void whenAPublicOperationActsAsTheSessionsUserThenItNeedsAToken() throws Exception {
        assertThat(CsrfFilter.needsToken("POST", method(InvokeResource.class, "invoke", String.class, String.class,
                String.class, InputStream.class))).as("invoke takes a dependency token too, but acts as the session's user")
                .isTrue();
        assertThat(CsrfFilter.needsToken("POST", method(LoginResource.class, "logout", String.class))).isTrue();
        assertThat(CsrfFilter.needsToken("POST", null)).as("no resource method known").isTrue();
    }

    @Test
    void whenAPublicOperationAuthenticatesByWhatTheRequestCarriesThenItNeedsNone() throws Exception {
        assertThat(CsrfFilter.needsToken("POST", method(LoginResource.class, "login", String.class))).isFalse();
        assertThat(CsrfFilter.needsToken("POST", method(LoginResource.class, "refresh", String.class))).isFalse();
    }

    @Test
    void whenTheMethodIsSafeThenNoTokenIsNeeded() throws Exception {
        Method invoke = method(InvokeResource.class, "invoke", String.class, String.class, String.class,
                InputStream.class);
        for (String safe : new String[] {"GET", "HEAD", "OPTIONS"}) {
            assertThat(CsrfFilter.needsToken(safe, invoke)).as(safe).isFalse();
        }
        for (String change : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
            assertThat(CsrfFilter.needsToken(change, invoke)).as(change).isTrue();
        }
    }

    @Test
    void whenAnExemptionIsClaimedWithoutBeingPublicThenItDoesNotCount() throws Exception {
        assertThat(CsrfFilter.needsToken("POST", method(NotPublic.class, "change"))).isTrue();
    }

    static final class NotPublic {
        @CsrfExempt
        public void change() {
        }
    }
}
