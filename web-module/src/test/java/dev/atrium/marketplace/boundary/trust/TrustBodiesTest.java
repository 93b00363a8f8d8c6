package dev.atrium.marketplace.boundary.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.marketplace.boundary.submission.ApproveRequest;
import dev.atrium.platform.boundary.http.ErrorMapper;
import dev.atrium.platform.boundary.json.Json;

/**
 * The bodies of the approval, the trust change and the security report, read by the API's JSON-B: hostile input is
 * read or refused as malformed (400), never a 500; and any trust level in an approval reaches the {@code @Null}
 * check, whatever JSON type it has, so it is refused (422) rather than slipping through.
 */
class TrustBodiesTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);
    private static final List<Class<?>> BODIES = List.of(ApproveRequest.class, TrustRequest.class,
            AgentReportRequest.class);
    private static final List<String> VALUES = List.of("null", "true", "0", "-1e999", "\"official\"",
            "\"community_verified\"", "\"\"", "\"\\u0000\"", "[]", "[\"official\"]", "{}", "{\"level\":\"official\"}",
            "\"" + "x".repeat(5000) + "\"", "1.5", "\"\\ud800\"");
    private static final List<String> NAMES = List.of("trust_level", "trustLevel", "note", "level", "reason",
            "details", "TRUST_LEVEL", "", "__proto__");

    private final ErrorMapper mapper = new ErrorMapper();

    private Object read(Class<?> type, String body) {
        return Json.jsonb().fromJson(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), type);
    }

    /** Reads the body; a refusal must be the malformed-JSON 400. Answers the record, or null when refused. */
    private Object readOr400(Class<?> type, String body) {
        Object[] read = new Object[1];
        Throwable thrown = catchThrowable(() -> read[0] = read(type, body));
        if (thrown != null) {
            assertThat(mapper.toResponse(thrown).getStatus()).as(type.getSimpleName() + " " + body).isEqualTo(400);
        }
        return read[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "[]", "null", "\"text\"", "{\"trust_level\":", "{\"note\": [1, {\"a\": ",
            "{\"reason\": \"other\", \"details\": \"x\"} trailing", "{\"level\": \"official\", \"level\": 1}",
            "{\"trust_level\": {\"deep\": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}}", "{\"\\u0000\": 1}",
            "{\"note\": \"\\ud83d\"}", "\ufeff{}", "{\"details\": 1e99999}"})
    void whenAHostileBodyIsReadThenReadOrMalformedNever500(String body) {
        for (Class<?> type : BODIES) {
            readOr400(type, body);
        }
    }

    @Test
    void whenAnApprovalCarriesATrustLevelOfAnyTypeThenTheRecordHoldsItForTheNullCheck() {
        for (String value : VALUES) {
            var approval = (ApproveRequest) readOr400(ApproveRequest.class, "{\"trust_level\": " + value
                    + ", \"note\": \"ok\"}");
            if (approval != null && !"null".equals(value)) {
                assertThat(approval.trustLevel()).as(value).isNotNull();
            }
        }
        var plain = (ApproveRequest) readOr400(ApproveRequest.class, "{\"note\": \"fine\"}");
        assertThat(plain.trustLevel()).isNull();
    }

    @Test
    void whenRandomBodiesAreReadThenReadOrMalformedNever500() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            var body = new StringBuilder("{");
            int fields = random.nextInt(4);
            for (int f = 0; f < fields; f++) {
                if (f > 0) {
                    body.append(',');
                }
                body.append('"').append(NAMES.get(random.nextInt(NAMES.size()))).append("\":")
                        .append(VALUES.get(random.nextInt(VALUES.size())));
            }
            body.append('}');
            String text = body.toString();
            if (random.nextInt(5) == 0) {
                text = text.substring(0, random.nextInt(text.length() + 1));
            }
            boolean carriesLevel = text.contains("\"trust_level\":") && !text.contains("\"trust_level\":null");
            for (Class<?> type : BODIES) {
                Object read = readOr400(type, text);
                if (read instanceof ApproveRequest approval && carriesLevel) {
                    assertThat(approval.trustLevel()).as("seed %d round %d: %s", SEED, round, text).isNotNull();
                }
            }
        }
    }
}
