package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import org.junit.jupiter.api.Test;

class BoundedInputStreamTest {

    private static IllegalStateException tooLarge() {
        return new IllegalStateException("too large");
    }

    @Test
    void whenExactlyTheLimitIsReadThenItPassesAndOneByteMoreFails() throws IOException {
        try (var exact = new BoundedInputStream(new ByteArrayInputStream(new byte[10]), 10,
                BoundedInputStreamTest::tooLarge)) {
            assertThat(exact.readAllBytes()).hasSize(10);
        }
        var over = new BoundedInputStream(new ByteArrayInputStream(new byte[11]), 10, BoundedInputStreamTest::tooLarge);
        assertThatThrownBy(over::readAllBytes).isInstanceOf(IllegalStateException.class).hasMessage("too large");
    }

    @Test
    void whenBytesAreSkippedOrReadOneByOneThenTheyCountToo() throws IOException {
        var stream = new BoundedInputStream(new ByteArrayInputStream(new byte[5]), 3, BoundedInputStreamTest::tooLarge);
        assertThat(stream.skip(2)).isEqualTo(2);
        assertThat(stream.read()).isZero();
        assertThatThrownBy(stream::read).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenTheDeclaredLengthIsAboveTheLimitOrNotANumberThenItIsRefusedBeforeReading() {
        assertThatThrownBy(() -> BoundedInputStream.checkDeclared("11", 10, BoundedInputStreamTest::tooLarge,
                () -> new IllegalArgumentException("bad"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> BoundedInputStream.checkDeclared("ten", 10, BoundedInputStreamTest::tooLarge,
                () -> new IllegalArgumentException("bad"))).isInstanceOf(IllegalArgumentException.class);
        assertThatNoException().isThrownBy(() -> BoundedInputStream.checkDeclared(" 10 ", 10,
                BoundedInputStreamTest::tooLarge, () -> new IllegalArgumentException("bad")));
        assertThatNoException().isThrownBy(() -> BoundedInputStream.checkDeclared(null, 10,
                BoundedInputStreamTest::tooLarge, () -> new IllegalArgumentException("bad")));
    }
}
