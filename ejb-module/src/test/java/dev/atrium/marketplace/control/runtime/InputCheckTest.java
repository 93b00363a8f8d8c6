package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonInput;

/**
 * Spec 03's input validation on invoke. Hostile bodies end as 400 (not JSON, too deep: the reader), 422 (the spec's
 * {@code valid: false} with the fields named) or valid, never anything else.
 */
class InputCheckTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 2000);
    private static final CardValidator VALIDATOR = new CardValidator();
    private static final String CARD = """
            {"name": "x", "input_schema": {"type": "object", "required": ["text", "count"],
              "properties": {"text": {"type": "string"}, "count": {"type": "integer"},
                             "mode": {"type": "string", "enum": ["fast", "slow"]},
                             "tags": {"type": "array", "items": {"type": "string"}}}}}""";

    static Stream<Arguments> hostile() {
        String deep = "[".repeat(70) + "]".repeat(70);
        String nested = "{\"text\": \"a\", \"count\": 1, \"extra\": " + "{\"a\":".repeat(60) + "1" + "}".repeat(60)
                + "}";
        return Stream.of(
                Arguments.of("missing both", "{}", "/text", "/count"),
                Arguments.of("missing count", "{\"text\": \"a\"}", "/count", null),
                Arguments.of("text a number", "{\"text\": 5, \"count\": 1}", "/text", null),
                Arguments.of("count a string", "{\"text\": \"a\", \"count\": \"1\"}", "/count", null),
                Arguments.of("count a float", "{\"text\": \"a\", \"count\": 1.5}", "/count", null),
                Arguments.of("text null", "{\"text\": null, \"count\": 1}", "/text", null),
                Arguments.of("text an object", "{\"text\": {\"a\": 1}, \"count\": 1}", "/text", null),
                Arguments.of("enum broken", "{\"text\": \"a\", \"count\": 1, \"mode\": \"other\"}", "/mode", null),
                Arguments.of("array of numbers", "{\"text\": \"a\", \"count\": 1, \"tags\": [1, 2]}", "/tags/0",
                        null),
                Arguments.of("array body", "[1, 2]", "JSON object", "an array"),
                Arguments.of("string body", "\"text\"", "JSON object", "a string"),
                Arguments.of("number body", "42", "JSON object", "a number"),
                Arguments.of("null body", "null", "JSON object", "null"),
                Arguments.of("deep but under the reader's limit, extra property", nested, null, null),
                Arguments.of("huge string", "{\"text\": \"" + "x".repeat(900_000) + "\", \"count\": 1}", null,
                        null),
                Arguments.of("unicode keys", "{\"text\": \"\\u0000\", \"count\": 1, \"\\ud83d\\ude00\": 1}", null,
                        null),
                Arguments.of("too deep", deep, "400", null),
                Arguments.of("not JSON", "{\"text\": ", "400", null),
                Arguments.of("two values", "{} {}", "400", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void whenAHostileBodyIsCheckedThenItIsMalformedInvalidOrValidNeverAnError(String name, String body,
                                                                          String mentions, String alsoMentions) {
        if ("400".equals(mentions)) {
            assertThatThrownBy(() -> JsonInput.read(body)).isInstanceOf(BusinessException.class)
                    .satisfies(e -> assertThat(((BusinessException) e).problem()).isEqualTo(Problem.BAD_REQUEST));
            return;
        }
        var problems = InputCheck.problems(JsonInput.read(body), CARD, VALIDATOR);

        if (mentions == null) {
            assertThat(problems).as(name).isEmpty();
        } else {
            assertThat(problems).as(name).isPresent();
            assertThat(problems.get()).contains(mentions);
            if (alsoMentions != null) {
                assertThat(problems.get()).contains(alsoMentions);
            }
            assertThat(problems.get().length()).isLessThanOrEqualTo(InputCheck.TEXT_MAX);
        }
    }

    /** The gateway checks against the schema compiled once per version ({@link ServedVersions}): the same answers. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void whenTheSchemaWasCompiledBeforehandThenTheAnswerIsTheSameAsFromTheCard(String name, String body,
                                                                            String expect, String alsoExpect) {
        JsonValue input;
        try {
            input = JsonInput.read(body);
        } catch (BusinessException malformed) {
            return;
        }
        var schema = ((JsonObject) JsonInput.read(CARD)).getJsonObject("input_schema").toString();

        assertThat(InputCheck.problems(input, Optional.of(VALIDATOR.compile(schema)), VALIDATOR))
                .isEqualTo(InputCheck.problems(input, CARD, VALIDATOR));
    }

    @Test
    void whenTheCardHasNoInputSchemaThenAnyObjectIsValid() {
        assertThat(InputCheck.problems(JsonInput.read("{\"a\": 1}"), "{\"name\": \"x\"}", VALIDATOR)).isEmpty();
        assertThat(InputCheck.problems(JsonInput.read("[]"), "{\"name\": \"x\"}", VALIDATOR)).isPresent();
    }

    @Test
    void whenManyFieldsAreWrongThenTheTextStaysBounded() {
        var card = new StringBuilder("{\"input_schema\": {\"type\": \"object\", \"required\": [");
        for (int i = 0; i < 500; i++) {
            card.append(i == 0 ? "" : ",").append("\"field_").append("y".repeat(40)).append(i).append('"');
        }
        card.append("]}}");

        var problems = InputCheck.problems(JsonValue.EMPTY_JSON_OBJECT, card.toString(), VALIDATOR);

        assertThat(problems.get()).contains("more").hasSizeLessThanOrEqualTo(InputCheck.TEXT_MAX);
    }

    /** Random JSON values: the check answers empty or a text, and never throws. */
    @Test
    void whenRandomValuesAreCheckedThenTheCheckAnswersWithoutFailing() {
        var random = new Random(SEED);
        for (int i = 0; i < ROUNDS; i++) {
            String body = value(random, 0);
            JsonValue input;
            try {
                input = JsonInput.read(body);
            } catch (BusinessException malformed) {
                continue;
            }
            var problems = InputCheck.problems(input, CARD, VALIDATOR);
            assertThat(problems).as("round " + i + " (seed " + SEED + "): " + body).isNotNull();
            problems.ifPresent(p -> assertThat(p).isNotBlank());
        }
    }

    private static String value(Random random, int depth) {
        int pick = random.nextInt(depth > 4 ? 5 : 8);
        return switch (pick) {
            case 0 -> "\"" + "ab\\u00e9\\\"".repeat(random.nextInt(4)) + "\"";
            case 1 -> Integer.toString(random.nextInt());
            case 2 -> random.nextBoolean() ? "true" : "null";
            case 3 -> Double.toString(random.nextDouble() * 1e6);
            case 4 -> "\"fast\"";
            case 5 -> {
                var sb = new StringBuilder("[");
                for (int i = random.nextInt(4); i > 0; i--) {
                    sb.append(value(random, depth + 1)).append(i > 1 ? "," : "");
                }
                yield sb.append(']').toString();
            }
            default -> {
                String[] keys = {"text", "count", "mode", "tags", "other"};
                var sb = new StringBuilder("{");
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    sb.append(i == 0 ? "" : ",").append('"').append(keys[random.nextInt(keys.length)]).append(i)
                            .append(random.nextBoolean() ? "" : "x").append("\":").append(value(random, depth + 1));
                }
                yield sb.append('}').toString();
            }
        };
    }
}
