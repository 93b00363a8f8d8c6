package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

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

    @Property(tries = 300)
    void whenAnyTextIsReadThenEitherAValueOrMalformedJson(@ForAll("jsonish") String text) {
        readsOrRefuses(text);
    }

    @Property(tries = 300)
    void whenRandomBytesAreReadThenEitherAValueOrMalformedJson(@ForAll byte[] bytes) {
        try {
            JsonInput.read(new ByteArrayInputStream(bytes), "d");
        } catch (BusinessException e) {
            assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST);
        }
    }

    @Property(tries = 200)
    void whenJsonBReadsAnyTextThenAValueOrAFailureClassifiedMalformed(@ForAll("jsonish") String text) {
        try {
            JSONB.fromJson(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), Named.class);
        } catch (RuntimeException e) {
            assertThat(JsonInput.isMalformed(e)).as(e.toString()).isTrue();
        }
    }

    private static void readsOrRefuses(String text) {
        try {
            assertThat(JsonInput.read(text, "d")).isNotNull();
        } catch (BusinessException e) {
            assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST);
        }
    }

    /** Random nesting of arrays and objects (up to 3,000 levels), fragments of JSON, and truncations of both. */
    @Provide
    Arbitrary<String> jsonish() {
        Arbitrary<String> nested = Combinators.combine(Arbitraries.integers().between(1, 3_000),
                Arbitraries.of("[", "{\"a\":", "{\"name\":", "[{\"x\":"), Arbitraries.of("1", "\"s\"", "null", ""),
                Arbitraries.of(true, false))
                .as((depth, open, leaf, closed) -> {
                    String text = open.repeat(depth) + leaf;
                    if (closed) {
                        var close = new StringBuilder();
                        for (int i = 0; i < depth; i++) {
                            close.append(open.startsWith("[{") ? "}]" : open.startsWith("[") ? "]" : "}");
                        }
                        text += close;
                    }
                    return text;
                });
        Arbitrary<String> fragments = Arbitraries.of("{", "}", "[", "]", ":", ",", "\"", "\\", "\"name\"", "1e999",
                "-", "0.", "true", "nul", "\\u00", "\uD800", " ", "\u0000", "{\"name\":\"n\"}")
                .list().ofMaxSize(60).map(parts -> String.join("", parts));
        Arbitrary<String> truncated = Arbitraries.oneOf(nested, fragments, Arbitraries.strings().ofMaxLength(200))
                .flatMap(text -> Arbitraries.integers().between(0, text.length()).map(n -> text.substring(0, n)));
        return Arbitraries.oneOf(nested, fragments, truncated, Arbitraries.strings().ofMaxLength(200));
    }
}
