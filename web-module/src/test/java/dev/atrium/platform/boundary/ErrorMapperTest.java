package dev.atrium.platform.boundary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

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
}
