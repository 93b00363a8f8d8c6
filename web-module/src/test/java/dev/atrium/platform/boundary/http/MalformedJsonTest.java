package dev.atrium.platform.boundary.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.boundary.RequestFields;
import dev.atrium.platform.boundary.json.Json;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The web module's JSON readers and the envelope writer agree with JsonInput on what malformed JSON is. */
public class MalformedJsonTest {

    public record Article(String title) {
    }

    private final ErrorMapper mapper = new ErrorMapper();

    @Test
    void whenParssonRefusesDeepNestingThenTheEnvelopeIs400Not500() {
        Throwable deep = catchThrowable(() -> jakarta.json.Json.createReader(new StringReader("[".repeat(10_000)))
                .readValue());
        assertThat(deep).isNotNull();
        var response = mapper.toResponse(deep);
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(((ErrorResponse) response.getEntity()).error().code()).isEqualTo(40000);
    }

    @Test
    void whenTheApiJsonBReadsDeepOrCutOffBodiesThenTheEnvelopeIs400() {
        for (String body : new String[] {"[".repeat(10_000), "{\"title\":".repeat(1_000),
                "{\"title\": \"t\", \"zz\": {\"a\": [1, {\"b\": 2"}) {
            Throwable thrown = catchThrowable(() -> Json.jsonb().fromJson(
                    new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), Article.class));
            assertThat(thrown).as(body.substring(0, 20)).isNotNull();
            assertThat(mapper.toResponse(thrown).getStatus()).isEqualTo(400);
        }
    }

    @Test
    void whenABodyLimitIsHitInsideAJsonReaderThenTheEnvelopeIs413() {
        var response = mapper.toResponse(new JsonbException("Internal error", BodyLimitFilter.tooLarge(10)));
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(((ErrorResponse) response.getEntity()).error().code()).isEqualTo(41300);
    }

    @Test
    void whenLoginFieldsAreDeeplyNestedThenMalformedJson() {
        assertThatThrownBy(() -> RequestFields.of(MediaType.APPLICATION_JSON_TYPE, "{\"email\":".repeat(10_000),
                new MultivaluedHashMap<>())).isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST));
    }
}
