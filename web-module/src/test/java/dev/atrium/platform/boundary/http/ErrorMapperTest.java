package dev.atrium.platform.boundary.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.ejb.EJBException;
import jakarta.servlet.http.HttpServletRequest;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.boundary.json.Json;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStoreException;

class ErrorMapperTest {

    private final ErrorMapper mapper = new ErrorMapper();

    @Test
    void whenAnUnexpectedFailureThen500WithoutAnyInternalDetail() {
        var response = mapper.toResponse(new IllegalStateException("jdbc:postgresql://secret-host password=hunter2"));
        assertThat(response.getStatus()).isEqualTo(500);
        var body = (ErrorResponse) response.getEntity();
        assertThat(body.error().code()).isEqualTo(50000);
        assertThat(body.error().message()).isEqualTo("Internal server error");
        assertThat(body.error().details()).isNull();
        assertThat(Json.write(body)).doesNotContain("secret").doesNotContain("IllegalState");
    }

    @Test
    void whenABusinessExceptionThenItsStatusCodeAndHeaders() {
        var response = mapper.toResponse(new BusinessException(Problem.RATE_LIMITED, "Too many requests", "wait",
                java.util.Map.of("Retry-After", "7")));
        assertThat(response.getStatus()).isEqualTo(429);
        assertThat(((ErrorResponse) response.getEntity()).error().code()).isEqualTo(42900);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("7");
    }

    @Test
    void whenAnEjbWrapsABusinessExceptionThenItIsUnwrapped() {
        var wrapped = new jakarta.ejb.EJBException(BusinessException.notFound("Article"));
        var response = mapper.toResponse(wrapped);
        assertThat(response.getStatus()).isEqualTo(404);
    }

    @Test
    void whenUnauthenticatedThenTheBearerChallengeIsSent() {
        var response = mapper.toResponse(BusinessException.unauthenticated("Authentication required"));
        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getHeaderString("WWW-Authenticate")).isEqualTo("Bearer");
    }

    @Test
    void whenTheErrorEnvelopeIsWrittenThenItsFieldsAreSnakeCaseAndNullsPresent() {
        String json = Json.write(ErrorResponse.of(Problem.NOT_FOUND, "Resource not found", null));
        assertThat(json).isEqualTo(
                "{\"error\":{\"code\":40400,\"details\":null,\"doc_url\":null,\"message\":\"Resource not found\"}}");
    }

    @Test
    void whenTheKeyValueStoreIsDownThen503WithRetryAfterAndNoInternalDetail() {
        var down = new dev.atrium.platform.kv.KeyValueStoreException(
                "Redis GET failed at redis-host:6379: Connection refused");
        for (Throwable thrown : new Throwable[] {down, new jakarta.ejb.EJBException(down),
                new IllegalStateException("while counting", down)}) {
            var response = mapper.toResponse(thrown);
            assertThat(response.getStatus()).isEqualTo(503);
            var body = (ErrorResponse) response.getEntity();
            assertThat(body.error().code()).isEqualTo(50300);
            assertThat(body.error().message()).isEqualTo("Service temporarily unavailable");
            assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
            assertThat(Json.write(body)).doesNotContain("redis-host").doesNotContain("Redis");
        }
    }

    /** Jersey's mapper of {@code EJBException}s asks twice per failure: once whether it maps, once for the answer. */
    @Test
    void whenJerseyAsksTwiceForTheSameFailureThenItIsLoggedOnce() {
        var attributes = new HashMap<String, Object>();
        attributes.put(RequestIds.ATTRIBUTE, "req12345");
        mapper.request = (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        List<LogRecord> records = new ArrayList<>();
        var handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        var logger = Logger.getLogger(ErrorMapper.class.getName());
        logger.addHandler(handler);
        try {
            var storeDown = new EJBException(new KeyValueStoreException("value of quota:tokens:7 is not an integer"));
            var unexpected = new EJBException(new IllegalStateException("a bug"));
            for (Throwable failure : List.of(storeDown, unexpected)) {
                int status = failure == storeDown ? 503 : 500;
                assertThat(mapper.toResponse(failure).getStatus()).isEqualTo(status);
                assertThat(mapper.toResponse(failure).getStatus()).isEqualTo(status);
            }
            assertThat(records).extracting(r -> r.getLevel().getName() + " " + r.getMessage().split(":")[0])
                    .containsExactly("WARNING Key-value store unavailable in request req12345",
                            "SEVERE Unexpected failure in request req12345");
            assertThat(mapper.toResponse(new KeyValueStoreException("another")).getStatus()).isEqualTo(503);
            assertThat(records).hasSize(3);
        } finally {
            logger.removeHandler(handler);
        }
    }
}
