package dev.atrium.platform.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ObjectStore} adapter promises. Each test works under a prefix of its own and removes what it
 * stored.
 */
abstract class ObjectStoreContract {

    private final String prefix = "contract-" + UUID.randomUUID() + "/";
    private final List<String> used = new ArrayList<>();

    protected abstract ObjectStore store();

    protected abstract String expectedKind();

    /** A key unique to this test, removed after it. */
    protected String key(String name) {
        String key = prefix + name;
        used.add(key);
        return key;
    }

    @AfterEach
    void removeUsedObjects() {
        used.forEach(k -> {
            try {
                store().delete(k);
            } catch (RuntimeException ignored) {
                // the test itself reports what went wrong
            }
        });
    }

    @Test
    void whenObjectIsPutThenGetAnswersItsBytesTypeAndSize() throws IOException {
        byte[] content = "Hello, objects".getBytes(StandardCharsets.UTF_8);

        long size = store().put(key("a.txt"), new ByteArrayInputStream(content), "text/plain");

        assertThat(size).isEqualTo(content.length);
        var stored = store().get(key("a.txt")).orElseThrow();
        try (InputStream in = stored.content()) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        assertThat(stored.contentType()).isEqualTo("text/plain");
        assertThat(stored.size()).isEqualTo(content.length);
    }

    @Test
    void whenKeyIsAbsentThenGetIsEmptyAndDeleteIsFalse() {
        assertThat(store().get(key("absent"))).isEmpty();
        assertThat(store().delete(key("absent"))).isFalse();
    }

    @Test
    void whenObjectIsPutAgainThenTheLastContentAndTypeWin() throws IOException {
        store().put(key("k"), new ByteArrayInputStream(new byte[] {1, 2, 3}), "application/pdf");
        store().put(key("k"), new ByteArrayInputStream(new byte[] {9}), "image/png");

        var stored = store().get(key("k")).orElseThrow();
        try (InputStream in = stored.content()) {
            assertThat(in.readAllBytes()).containsExactly(9);
        }
        assertThat(stored.contentType()).isEqualTo("image/png");
        assertThat(store().list(prefix)).containsExactly(key("k"));
    }

    @Test
    void whenContentTypeIsMissingThenItIsOctetStream() throws IOException {
        store().put(key("untyped"), new ByteArrayInputStream(new byte[] {0}), null);

        var stored = store().get(key("untyped")).orElseThrow();
        stored.content().close();
        assertThat(stored.contentType()).isEqualTo("application/octet-stream");
    }

    @Test
    void whenObjectIsEmptyThenItRoundTrips() throws IOException {
        assertThat(store().put(key("empty"), InputStream.nullInputStream(), "text/plain")).isZero();

        var stored = store().get(key("empty")).orElseThrow();
        try (InputStream in = stored.content()) {
            assertThat(in.readAllBytes()).isEmpty();
        }
        assertThat(stored.size()).isZero();
    }

    @Test
    void whenObjectIsDeletedThenItIsGoneAndDeletingAgainIsFalse() {
        store().put(key("gone"), new ByteArrayInputStream(new byte[] {1}), "text/plain");

        assertThat(store().delete(key("gone"))).isTrue();

        assertThat(store().get(key("gone"))).isEmpty();
        assertThat(store().delete(key("gone"))).isFalse();
        assertThat(store().list(prefix)).isEmpty();
    }

    @Test
    void whenKeysShareAPrefixThenListAnswersThemInLexicalOrderAndNothingElse() {
        for (String name : List.of("b/2.txt", "a/1.txt", "b/1.txt", "bc.txt")) {
            store().put(key(name), new ByteArrayInputStream(new byte[] {1}), "text/plain");
        }

        assertThat(store().list(prefix)).containsExactly(key("a/1.txt"), key("b/1.txt"), key("b/2.txt"),
                key("bc.txt"));
        assertThat(store().list(prefix + "b/")).containsExactly(key("b/1.txt"), key("b/2.txt"));
        assertThat(store().list(prefix + "b")).containsExactly(key("b/1.txt"), key("b/2.txt"), key("bc.txt"));
        assertThat(store().list(prefix + "zzz")).isEmpty();
    }

    @Test
    void whenKeyHasSpacesAndNonAsciiCharactersThenItRoundTrips() throws IOException {
        String key = key("42/" + UUID.randomUUID() + "/Grüße an alle (v2) + 東京 & co.txt");

        store().put(key, new ByteArrayInputStream("ok".getBytes(StandardCharsets.UTF_8)), "text/plain");

        try (InputStream in = store().get(key).orElseThrow().content()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("ok");
        }
        assertThat(store().list(prefix + "42/")).containsExactly(key);
    }

    @Test
    void whenObjectIsLargerThanOneUploadPartThenItRoundTripsByteForByte() throws IOException {
        long size = 2L * S3ObjectStore.MIN_PART_SIZE + 12_345;

        long stored = store().put(key("large.bin"), new Generated(size), "application/octet-stream");

        assertThat(stored).isEqualTo(size);
        var object = store().get(key("large.bin")).orElseThrow();
        assertThat(object.size()).isEqualTo(size);
        try (InputStream in = object.content()) {
            assertThat(digest(in)).isEqualTo(digest(new Generated(size)));
        }
    }

    @Test
    void whenTheContentStreamFailsThenTheFailurePropagatesAndNothingIsStored() {
        var limitExceeded = new IllegalStateException("too large");
        var small = new Failing(10, limitExceeded);
        var large = new Failing(S3ObjectStore.MIN_PART_SIZE + 10L, limitExceeded);

        assertThatThrownBy(() -> store().put(key("small"), small, "text/plain")).isSameAs(limitExceeded);
        assertThatThrownBy(() -> store().put(key("large"), large, "text/plain")).isSameAs(limitExceeded);

        assertThat(store().get(key("small"))).isEmpty();
        assertThat(store().get(key("large"))).isEmpty();
        assertThat(store().list(prefix)).isEmpty();
    }

    @Test
    void whenKeyCouldEscapeTheStoreThenItIsRefused() {
        for (String bad : List.of("../x", "a/../../x", "/abs", "a//b", "a/./b", "a/", "tab\there", "back\\slash",
                "")) {
            assertThatThrownBy(() -> store().put(bad, InputStream.nullInputStream(), "text/plain")).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store().get(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void whenAskedThenItNamesItsKind() {
        assertThat(store().kind()).isEqualTo(expectedKind());
    }

    @Test
    void whenTheStoreAnswersThenItIsReachable() {
        assertThat(store().reachable()).isTrue();
    }

    static String digest(InputStream in) throws IOException {
        try {
            var sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return java.util.HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code size} bytes of a repeatable pattern, made as read: a large object without a large array. */
    static final class Generated extends InputStream {
        private final long size;
        private long position;

        Generated(long size) {
            this.size = size;
        }

        @Override
        public int read() {
            return position < size ? (int) ((position++ * 31 + 7) % 251) : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= size) {
                return -1;
            }
            int n = (int) Math.min(len, size - position);
            for (int i = 0; i < n; i++) {
                b[off + i] = (byte) read();
            }
            return n;
        }
    }

    /** Gives {@code before} bytes, then throws {@code failure}, as a size limit does on the way. */
    static final class Failing extends InputStream {
        private final Generated content;
        private final long before;
        private final RuntimeException failure;
        private long read;

        Failing(long before, RuntimeException failure) {
            this.content = new Generated(Long.MAX_VALUE);
            this.before = before;
            this.failure = failure;
        }

        @Override
        public int read() {
            if (read >= before) {
                throw failure;
            }
            read++;
            return content.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (read >= before) {
                throw failure;
            }
            int n = content.read(b, off, (int) Math.min(len, before - read));
            read += n;
            return n;
        }
    }
}
