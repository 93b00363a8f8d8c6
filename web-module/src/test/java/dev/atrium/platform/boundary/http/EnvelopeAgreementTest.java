package dev.atrium.platform.boundary.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.platform.boundary.json.Json;
import dev.atrium.platform.container.Refusal;
import dev.atrium.platform.error.Problem;

/**
 * The module grizzly-envelope writes the envelope of the HTTP parser's refusals without the application's classes (it
 * runs in Payara's class loader): its bodies are the ones the application writes for the same bare status
 * ({@link ErrorEnvelopeServlet}).
 */
class EnvelopeAgreementTest {

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 402, 403, 404, 405, 408, 409, 410, 411, 413, 414, 415, 417, 422, 429, 431, 500, 501,
        502, 503, 505})
    void whenTheParserRefusesWithAStatusThenItsEnvelopeIsTheApplicationsForThatStatus(int status) {
        assertThat(Refusal.body(status))
                .isEqualTo(Json.write(ErrorResponse.of(Problem.forStatus(status), StatusTexts.of(status), null)));
    }
}
