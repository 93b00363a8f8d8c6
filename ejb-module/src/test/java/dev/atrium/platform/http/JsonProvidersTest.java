package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The JSON-P provider is looked up once: the static {@code jakarta.json.Json} factories look it up through the
 * service loader on every call, which on the chat stream cost more per fragment than the fragment itself.
 */
class JsonProvidersTest {

    private static final Pattern STATIC_FACTORY = Pattern.compile("(?<![\\w.])Json\\.create|jakarta\\.json\\.Json\\.create");

    @Test
    void whenUsedThenOneProviderBuildsAndReads() {
        var built = JsonProviders.JSON.createObjectBuilder().add("type", "content").build();
        try (var reader = JsonProviders.JSON.createReader(new StringReader(built.toString()))) {
            assertThat(reader.readObject().getString("type")).isEqualTo("content");
        }
    }

    @Test
    void whenTheApplicationBuildsJsonThenNeverThroughTheStaticFactories() throws IOException {
        List<String> offenders;
        try (Stream<Path> sources = Stream.of(Path.of("src/main/java"), Path.of("../batch-jobs/src/main/java"),
                Path.of("../web-module/src/main/java")).flatMap(JsonProvidersTest::walk)) {
            offenders = sources.filter(p -> p.toString().endsWith(".java")).filter(p -> {
                try {
                    return STATIC_FACTORY.matcher(Files.readString(p)).find();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).map(Path::toString).toList();
        }
        assertThat(offenders).as("use JsonProviders.JSON").isEmpty();
    }

    private static Stream<Path> walk(Path sources) {
        try {
            return Files.walk(sources);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
