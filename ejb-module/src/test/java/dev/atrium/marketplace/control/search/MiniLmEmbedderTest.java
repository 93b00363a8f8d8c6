package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import ai.djl.util.Utils;

/** The model reads DJL's settings from its launcher (here Surefire's environment) and sets none of its own. */
class MiniLmEmbedderTest {

    @Test
    void whenTheModelLoadsThenDjlIsOfflineThroughTheEnvironmentAndNoPropertyOfItsIsSet() {
        float[] vector = new MiniLmEmbedder().embed("translate a contract into German");

        assertThat(vector).hasSize(MiniLmEmbedder.DIMENSION);
        assertThat(Utils.isOfflineMode()).isTrue();
        // what the embedder used to set itself; the libraries' own (JNA's, for DJL's CUDA probe) are theirs
        assertThat(System.getProperties()).doesNotContainKeys("ai.djl.offline", "ENGINE_CACHE_DIR");
    }

    @Test
    void whenTheLauncherNamesTheEngineCacheThenTheTokenizersLibraryIsUnpackedThere() throws Exception {
        TestModel.embedder();

        Path dir = MiniLmEmbedder.nativeDir();

        assertThat(dir).startsWith(Path.of("target", "native").toAbsolutePath());
        try (var found = Files.walk(dir)) {
            assertThat(found.map(p -> p.getFileName().toString())).contains(System.mapLibraryName("tokenizers"));
        }
    }
}
