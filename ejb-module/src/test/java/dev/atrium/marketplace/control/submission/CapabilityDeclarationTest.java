package dev.atrium.marketplace.control.submission;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import java.util.Random;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.Capability;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * The card's {@code capabilities}: declarations {@code {name, description, input_types, output_types, confidence}} or
 * plain names. Limits: 1 to 30 entries, each name 2 to 80 characters and declared once (in either form), a
 * description 1 to 500 characters, at most 10 media types per list (type/subtype, at most 100 characters, no
 * parameters), a confidence from 0 to 1, no other property.
 */
class CapabilityDeclarationTest {

    private static final CardValidator VALIDATOR = new CardValidator();

    private static String card(String capabilitiesJson) {
        JsonValue capabilities = Json.createReader(new StringReader(capabilitiesJson)).readValue();
        return Cards.with(b -> b.add("capabilities", capabilities));
    }

    @Test
    void whenDeclarationsAndNamesAreMixedThenBothAreReadAndDescriptionsReachTheSearchText() {
        var result = VALIDATOR.validate(card("""
                ["summarize-documents",
                 {"name": "extract-tables", "description": "Finds the tables of a PDF and returns them as CSV",
                  "input_types": ["application/pdf"], "output_types": ["text/csv", "application/json"],
                  "confidence": 0.8},
                 {"name": "ocr", "confidence": 0}]"""), true);

        assertThat(result.problems()).isEmpty();
        AgentCard card = result.card();
        assertThat(card.capabilities()).containsExactly("summarize-documents", "extract-tables", "ocr");
        assertThat(card.capabilityDeclarations()).containsExactly(Capability.named("summarize-documents"),
                new Capability("extract-tables", "Finds the tables of a PDF and returns them as CSV",
                        List.of("application/pdf"), List.of("text/csv", "application/json"), 0.8),
                new Capability("ocr", null, List.of(), List.of(), 0.0));
        assertThat(card.embeddingText()).contains(
                "Capabilities: summarize documents, extract tables (Finds the tables of a PDF and returns them as "
                        + "CSV), ocr.");
    }

    @Test
    void whenOnlyNamesThenTheSearchTextIsAsBefore() {
        var card = VALIDATOR.validate(Cards.VALID, true).card();

        assertThat(card.embeddingText()).contains("Capabilities: summarize documents, extract key points.");
    }

    @Test
    void whenTheSchemaIsServedThenItDescribesBothForms() {
        String schema = CardValidator.schemaText();

        assertThat(schema).contains("\"capability_name\"", "\"capability\"", "\"if\"", "\"input_types\"",
                "\"confidence\"", "\"max_cpu_percent\"");
    }

    static List<Arguments> hostile() {
        String huge = "x".repeat(1_000_000);
        String many = "[" + String.join(",", java.util.stream.IntStream.range(0, 31).mapToObj(i -> "\"cap-" + i + "\"")
                .toList()) + "]";
        String manyTypes = "[" + String.join(",", java.util.stream.IntStream.range(0, 11).mapToObj(i -> "\"text/t" + i
                + "\"").toList()) + "]";
        return List.of(
                Arguments.of("not a list", "\"summarize\"", "/capabilities"),
                Arguments.of("an empty list", "[]", "/capabilities"),
                Arguments.of("31 entries", many, "/capabilities"),
                Arguments.of("a number", "[42]", "/capabilities/0"),
                Arguments.of("null", "[null]", "/capabilities/0"),
                Arguments.of("a boolean", "[true]", "/capabilities/0"),
                Arguments.of("a nested list", "[[\"ocr\"]]", "/capabilities/0"),
                Arguments.of("a name of one character", "[\"a\"]", "/capabilities/0"),
                Arguments.of("a name of 81 characters", "[\"" + "n".repeat(81) + "\"]", "/capabilities/0"),
                Arguments.of("a name of a million characters", "[\"" + huge + "\"]", "/capabilities/0"),
                Arguments.of("the same name twice", "[\"ocr\", \"ocr\"]", "/capabilities"),
                Arguments.of("a name and a declaration of it", "[\"ocr\", {\"name\": \"ocr\", \"confidence\": 1}]",
                        "/capabilities/1"),
                Arguments.of("a declaration without a name", "[{\"description\": \"Reads text\"}]", "/capabilities/0"),
                Arguments.of("a name that is a number", "[{\"name\": 5}]", "/capabilities/0"),
                Arguments.of("an empty object", "[{}]", "/capabilities/0"),
                Arguments.of("an unknown property", "[{\"name\": \"ocr\", \"score\": 1}]", "/capabilities/0"),
                Arguments.of("an empty description", "[{\"name\": \"ocr\", \"description\": \"\"}]",
                        "/capabilities/0"),
                Arguments.of("a description of 501 characters", "[{\"name\": \"ocr\", \"description\": \""
                        + "d".repeat(501) + "\"}]", "/capabilities/0"),
                Arguments.of("a description of a million characters", "[{\"name\": \"ocr\", \"description\": \""
                        + huge + "\"}]", "/capabilities/0"),
                Arguments.of("a description that is an object", "[{\"name\": \"ocr\", \"description\": {\"a\": "
                        + "{\"b\": [1, 2, {\"c\": null}]}}}]", "/capabilities/0"),
                Arguments.of("confidence above 1", "[{\"name\": \"ocr\", \"confidence\": 1.5}]", "/capabilities/0"),
                Arguments.of("confidence below 0", "[{\"name\": \"ocr\", \"confidence\": -0.1}]", "/capabilities/0"),
                Arguments.of("confidence as text", "[{\"name\": \"ocr\", \"confidence\": \"0.9\"}]",
                        "/capabilities/0"),
                Arguments.of("confidence 1e400", "[{\"name\": \"ocr\", \"confidence\": 1e400}]", "/capabilities/0"),
                Arguments.of("confidence null", "[{\"name\": \"ocr\", \"confidence\": null}]", "/capabilities/0"),
                Arguments.of("media types as text", "[{\"name\": \"ocr\", \"input_types\": \"image/png\"}]",
                        "/capabilities/0"),
                Arguments.of("a media type without a subtype", "[{\"name\": \"ocr\", \"input_types\": [\"json\"]}]",
                        "/capabilities/0"),
                Arguments.of("a media type with parameters", "[{\"name\": \"ocr\", \"output_types\": "
                        + "[\"text/plain; charset=utf-8\"]}]", "/capabilities/0"),
                Arguments.of("a media type with a line break", "[{\"name\": \"ocr\", \"output_types\": "
                        + "[\"text/plain\\nx/y\"]}]", "/capabilities/0"),
                Arguments.of("a media type of 101 characters", "[{\"name\": \"ocr\", \"input_types\": [\"text/"
                        + "p".repeat(96) + "\"]}]", "/capabilities/0"),
                Arguments.of("11 media types", "[{\"name\": \"ocr\", \"input_types\": " + manyTypes + "}]",
                        "/capabilities/0"),
                Arguments.of("a media type that is a number", "[{\"name\": \"ocr\", \"input_types\": [7]}]",
                        "/capabilities/0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void whenTheCapabilitiesAreHostileThenTheCardIsRefusedWithAPointer(String what, String capabilities,
                                                                      String pointer) {
        var result = VALIDATOR.validate(card(capabilities), true);

        assertThat(result.valid()).as(what).isFalse();
        assertThat(result.problems()).as(what).anySatisfy(p -> {
            assertThat(p.pointer()).startsWith(pointer);
            assertThat(p.message()).isNotBlank().hasSizeLessThan(2_000);
        });
        assertThat(result.problems()).as(what).allSatisfy(p -> assertThat(p.pointer()).startsWith("/capabilities"));
    }

    /**
     * Random capability lists (random kinds, lengths, nesting, known and unknown properties, numbers at the edges):
     * the validator answers problems or a card, never anything else; an accepted card reads back its declarations,
     * names them as the record will, and gives a search text.
     */
    @Test
    void whenCapabilitiesAreRandomThenEveryCardIsAcceptedOrRefusedWithProblemsAndNeverFails() {
        var random = new Random(20_261_129L);
        int accepted = 0;
        for (int i = 0; i < 600; i++) {
            JsonArrayBuilder list = Json.createArrayBuilder();
            int size = random.nextInt(10) == 0 ? random.nextInt(40) : random.nextInt(5);
            for (int j = 0; j < size; j++) {
                list.add(capability(random));
            }
            String card = Cards.with(b -> b.add("capabilities", list));
            CardValidator.Result result;
            try {
                result = VALIDATOR.validate(card, true);
            } catch (BusinessException e) {
                // only a card that is not JSON is malformed, and these all are JSON
                assertThat(e.problem()).as(card).isEqualTo(Problem.BAD_REQUEST);
                continue;
            }
            if (result.valid()) {
                accepted++;
                AgentCard read = result.card();
                assertThat(Capability.names(read.capabilityDeclarations())).as(card).isEqualTo(read.capabilities());
                assertThat(read.capabilities()).as(card).doesNotHaveDuplicates().hasSizeBetween(1, 30);
                assertThat(read.embeddingText()).as(card).isNotBlank();
                assertThat(CardValidator.stored(read.json()).capabilities()).isEqualTo(read.capabilities());
            } else {
                assertThat(result.card()).isNull();
                assertThat(result.problems()).as(card).allSatisfy(p -> assertThat(p.message()).isNotBlank());
            }
        }
        // the generator is no use if it never makes a valid list, nor if it always does
        assertThat(accepted).isBetween(20, 580);
    }

    private static JsonValue capability(Random random) {
        return switch (random.nextInt(8)) {
            case 0, 1 -> Json.createValue(text(random, 2, 20));
            case 2 -> random.nextBoolean() ? JsonValue.NULL : JsonValue.TRUE;
            case 3 -> Json.createValue(random.nextInt(1000) - 500);
            case 4 -> Json.createArrayBuilder().add(text(random, 0, 10)).build();
            default -> declaration(random);
        };
    }

    private static JsonValue declaration(Random random) {
        JsonObjectBuilder o = Json.createObjectBuilder();
        if (random.nextInt(6) != 0) {
            if (random.nextInt(8) == 0) {
                o.add("name", random.nextInt(100));
            } else {
                o.add("name", text(random, random.nextInt(10) == 0 ? 0 : 2, random.nextInt(10) == 0 ? 200 : 30));
            }
        }
        if (random.nextBoolean()) {
            o.add("description", random.nextInt(10) == 0 ? Json.createValue(42)
                    : Json.createValue(text(random, random.nextInt(8) == 0 ? 0 : 1, random.nextInt(8) == 0 ? 900 : 80)));
        }
        for (String field : List.of("input_types", "output_types")) {
            if (random.nextBoolean()) {
                JsonArrayBuilder types = Json.createArrayBuilder();
                int n = random.nextInt(8) == 0 ? 12 : random.nextInt(3);
                for (int k = 0; k < n; k++) {
                    types.add(switch (random.nextInt(6)) {
                        case 0 -> "text/plain; charset=utf-8";
                        case 1 -> text(random, 1, 12);
                        case 2 -> "image/*";
                        default -> "application/x-" + text(random, 1, 8).replaceAll("[^a-z]", "a") + k;
                    });
                }
                o.add(field, random.nextInt(12) == 0 ? Json.createValue("application/json") : types.build());
            }
        }
        if (random.nextBoolean()) {
            double[] edges = {0, 1, 0.5, -0.0001, 1.0001, 1e300, -1e300, 0.999999};
            if (random.nextInt(10) == 0) {
                o.add("confidence", "high");
            } else {
                o.add("confidence", edges[random.nextInt(edges.length)]);
            }
        }
        if (random.nextInt(10) == 0) {
            o.add("extra", true);
        }
        return o.build();
    }

    /** Letters, digits, hyphens and now and then a character a name should not trip over (quotes, control, emoji). */
    private static String text(Random random, int min, int max) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789--  \"\\\u0000\n\u00e9\u4e2d\ud83d\ude00/*";
        int length = min + random.nextInt(Math.max(1, max - min + 1));
        var sb = new StringBuilder();
        while (sb.length() < length) {
            int at = random.nextInt(alphabet.length());
            char c = alphabet.charAt(at);
            if (Character.isHighSurrogate(c)) {
                sb.append(c).append(alphabet.charAt(at + 1));
            } else if (!Character.isLowSurrogate(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
