package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

public class JsonInputTest {

    public record Named(String name, Object extra) {
    }

    private static final Jsonb JSONB = JsonbBuilder.newBuilder().withProvider(JsonInput.provider())
            .withConfig(new JsonbConfig()).build();

    static Stream<Arguments> hostile() {
        return Stream.of(
                Arguments.of("empty", ""),
                Arguments.of("blank", "   \n"),
                Arguments.of("not JSON", "{this is not json"),
                Arguments.of("truncated object", "{\"name\": \"a"),
                Arguments.of("truncated array", "[1, 2,"),
                Arguments.of("10,000 open arrays", "[".repeat(10_000)),
                Arguments.of("10,000 open objects", "{\"a\":".repeat(10_000)),
                Arguments.of("1,000 closed arrays", "[".repeat(1_000) + "]".repeat(1_000)),
                Arguments.of("1,000 closed objects", "{\"a\":".repeat(1_000) + "1" + "}".repeat(1_000)),
                Arguments.of("one level too deep", "[".repeat(JsonInput.MAX_DEPTH + 1)
                        + "]".repeat(JsonInput.MAX_DEPTH + 1)),
                Arguments.of("lone surrogate escape", "\"\\ud800"),
                Arguments.of("bad escape", "\"\\x41\""),
                Arguments.of("control character in string", "\"a\u0001b\""),
                Arguments.of("NUL bytes", "\u0000\u0000"),
                Arguments.of("single quotes", "{'a': 1}"),
                Arguments.of("trailing comma", "{\"a\": 1,}"),
                Arguments.of("bare word", "nul"),
                Arguments.of("number with junk", "12abc"),
                Arguments.of("cut off inside an unknown object", "{\"name\": \"n\", \"zz\": {\"a\": 1"),
                Arguments.of("cut off inside an unknown array", "{\"name\": \"n\", \"zz\": [[1, 2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void whenTheTextIsHostileThenOnlyMalformedJson(String name, String text) {
        assertThatThrownBy(() -> JsonInput.read(text, "details")).isInstanceOfSatisfying(BusinessException.class,
                e -> {
                    assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST);
                    assertThat(e.details()).isEqualTo("details");
                });
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JsonInput.read(new ByteArrayInputStream(bytes), "details"))
                .isInstanceOf(BusinessException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostile")
    void whenJsonBReadsHostileTextThenTheFailureIsClassifiedMalformed(String name, String text) {
        assertThatThrownBy(() -> JSONB.fromJson(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                Named.class)).satisfies(e -> assertThat(JsonInput.isMalformed(e)).as(e.toString()).isTrue());
    }

    @Test
    void whenJsonBSkipsADeepUnknownFieldThenTheDepthStillCounts() {
        String deep = "{\"name\": \"n\", \"unknown\": " + "[".repeat(200) + "]".repeat(200) + "}";
        assertThatThrownBy(() -> JSONB.fromJson(new ByteArrayInputStream(deep.getBytes(StandardCharsets.UTF_8)),
                Named.class)).satisfies(e -> assertThat(JsonInput.isMalformed(e)).as(e.toString()).isTrue());
        String deepKnown = "{\"name\": \"n\", \"extra\": " + "{\"a\":".repeat(200) + "1" + "}".repeat(201);
        assertThatThrownBy(() -> JSONB.fromJson(deepKnown, Named.class))
                .satisfies(e -> assertThat(JsonInput.isMalformed(e)).as(e.toString()).isTrue());
    }

    @Test
    void whenTheNestingIsWithinTheLimitThenTheValueIsRead() {
        int depth = JsonInput.MAX_DEPTH;
        assertThat(JsonInput.read("[".repeat(depth) + "]".repeat(depth), "d").getValueType())
                .isEqualTo(JsonValue.ValueType.ARRAY);
        assertThat(JsonInput.read("{\"name\": \"n\"}", "d")).isInstanceOf(JsonObject.class);
        assertThat(JSONB.fromJson("{\"name\": \"n\", \"extra\": [[1]]}", Named.class).name()).isEqualTo("n");
    }

    @Test
    void whenAnotherValueFollowsThenMalformed() {
        assertThatThrownBy(() -> JsonInput.read("{} {}", "d")).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> JsonInput.read("[1] x", "d")).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenAFailureIsNotAboutTheInputThenItIsNotMalformed() {
        assertThat(JsonInput.isMalformed(new IllegalStateException("bug"))).isFalse();
        assertThat(JsonInput.isMalformed(new RuntimeException("not from the parser"))).isFalse();
        assertThat(JsonInput.isMalformed(new jakarta.json.stream.JsonGenerationException("write"))).isFalse();
        assertThat(JsonInput.isMalformed(new RuntimeException(new BusinessException(Problem.PAYLOAD_TOO_LARGE,
                "too large")))).isFalse();
    }

    /** Seeded loops, so a failing round can be replayed with {@code -Datrium.fuzz.seed}. */
    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 300);

    @Test
    void whenAnyTextIsReadThenEitherAValueOrMalformedJson() {
        var random = new Random(SEED);
        for (int round = 0; round < ROUNDS; round++) {
            String text = jsonish(random);
            try {
                assertThat(JsonInput.read(text, "d")).isNotNull();
            } catch (BusinessException e) {
                assertThat(e.problem()).as("round %d", round).isEqualTo(Problem.BAD_REQUEST);
            }
        }
    }

    @Test
    void whenRandomBytesAreReadThenEitherAValueOrMalformedJson() {
        var random = new Random(SEED + 1);
        for (int round = 0; round < ROUNDS; round++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            try {
                JsonInput.read(new ByteArrayInputStream(bytes), "d");
            } catch (BusinessException e) {
                assertThat(e.problem()).as("round %d", round).isEqualTo(Problem.BAD_REQUEST);
            }
        }
    }

    @Test
    void whenJsonBReadsAnyTextThenAValueOrAFailureClassifiedMalformed() {
        var random = new Random(SEED + 2);
        for (int round = 0; round < ROUNDS; round++) {
            String text = jsonish(random);
            try {
                JSONB.fromJson(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), Named.class);
            } catch (RuntimeException e) {
                assertThat(JsonInput.isMalformed(e)).as("round %d: %s", round, e).isTrue();
            }
        }
    }

    private static final List<String> OPENERS = List.of("[", "{\"a\":", "{\"name\":", "[{\"x\":");
    private static final List<String> LEAVES = List.of("1", "\"s\"", "null", "");
    private static final List<String> FRAGMENTS = List.of("{", "}", "[", "]", ":", ",", "\"", "\\", "\"name\"",
            "1e999", "-", "0.", "true", "nul", "\\u00", "\uD800", " ", "\u0000", "{\"name\":\"n\"}");

    /** Random nesting of arrays and objects (up to 3,000 levels), fragments of JSON, random text, and their cuts. */
    private static String jsonish(Random random) {
        String text = switch (random.nextInt(3)) {
            case 0 -> nested(random);
            case 1 -> fragments(random);
            default -> randomText(random);
        };
        return random.nextInt(4) == 0 ? text.substring(0, random.nextInt(text.length() + 1)) : text;
    }

    private static String nested(Random random) {
        int depth = 1 + random.nextInt(3_000);
        String open = OPENERS.get(random.nextInt(OPENERS.size()));
        var text = new StringBuilder(open.repeat(depth)).append(LEAVES.get(random.nextInt(LEAVES.size())));
        if (random.nextBoolean()) {
            String close = open.startsWith("[{") ? "}]" : open.startsWith("[") ? "]" : "}";
            text.append(close.repeat(depth));
        }
        return text.toString();
    }

    private static String fragments(Random random) {
        var text = new StringBuilder();
        for (int i = random.nextInt(61); i > 0; i--) {
            text.append(FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
        }
        return text.toString();
    }

    private static String randomText(Random random) {
        var text = new StringBuilder();
        for (int i = random.nextInt(201); i > 0; i--) {
            text.append((char) random.nextInt(random.nextBoolean() ? 128 : 0xFFFF));
        }
        return text.toString();
    }
}
