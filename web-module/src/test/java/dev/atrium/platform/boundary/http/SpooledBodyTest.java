package dev.atrium.platform.boundary.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class SpooledBodyTest {

    @Test
    void whenTheBodyIsSmallThenItStaysInMemoryAndReadsBackWithItsDigest() throws Exception {
        byte[] content = "{\"title\":\"x\"}".getBytes();

        try (var body = SpooledBody.read(new ByteArrayInputStream(content))) {
            assertThat(body.inMemory()).isTrue();
            assertThat(body.stream().readAllBytes()).isEqualTo(content);
            assertThat(body.sha256()).isEqualTo(sha256(content));
        }
    }

    @Test
    void whenTheBodyIsLargeThenItGoesToATemporaryFileThatCloseDeletes() throws Exception {
        byte[] content = new byte[3 * SpooledBody.IN_MEMORY + 17];
        new Random(1).nextBytes(content);
        List<Path> before = spools();

        var body = SpooledBody.read(new ByteArrayInputStream(content));
        assertThat(body.inMemory()).isFalse();
        try (InputStream in = body.stream()) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        assertThat(body.sha256()).isEqualTo(sha256(content));
        assertThat(spools()).hasSize(before.size() + 1);

        body.close();
        assertThat(spools()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void whenReadingFailsThenTheFailurePassesAndNoFileIsLeft() throws IOException {
        var tooLarge = new IllegalStateException("413");
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(new byte[2 * SpooledBody.IN_MEMORY]),
                new InputStream() {
                    @Override
                    public int read() {
                        throw tooLarge;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) {
                        throw tooLarge;
                    }
                });
        List<Path> before = spools();

        assertThatThrownBy(() -> SpooledBody.read(failing)).isSameAs(tooLarge);

        assertThat(spools()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void whenThereIsNoBodyThenItIsTheDigestOfNothing() throws Exception {
        assertThat(SpooledBody.empty().sha256()).isEqualTo(sha256(new byte[0]));
        assertThat(SpooledBody.empty().stream().readAllBytes()).isEmpty();
    }

    private static List<Path> spools() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("atrium-body-")).toList();
        }
    }

    private static String sha256(byte[] content) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    }
}
