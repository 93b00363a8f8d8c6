package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import org.junit.jupiter.api.Test;

class BodyLimitTest {

    private static IllegalStateException tooLarge() {
        return new IllegalStateException("too large");
    }

    @Test
    void whenExactlyTheLimitIsReadThenItPassesAndOneByteMoreFails() throws IOException {
        try (var exact = BodyLimit.bound(new ByteArrayInputStream(new byte[10]), 10,
                BodyLimitTest::tooLarge)) {
            assertThat(exact.readAllBytes()).hasSize(10);
        }
        var over = BodyLimit.bound(new ByteArrayInputStream(new byte[11]), 10, BodyLimitTest::tooLarge);
        assertThatThrownBy(over::readAllBytes).isInstanceOf(IllegalStateException.class).hasMessage("too large");
    }

    @Test
    void whenBytesAreSkippedOrReadOneByOneThenTheyCountToo() throws IOException {
        var stream = BodyLimit.bound(new ByteArrayInputStream(new byte[5]), 3, BodyLimitTest::tooLarge);
        assertThat(stream.skip(2)).isEqualTo(2);
        assertThat(stream.read()).isZero();
        assertThatThrownBy(stream::read).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void whenTheDeclaredLengthIsAboveTheLimitOrNotANumberThenItIsRefusedBeforeReading() {
        assertThatThrownBy(() -> BodyLimit.checkDeclared("11", 10, BodyLimitTest::tooLarge,
                () -> new IllegalArgumentException("bad"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> BodyLimit.checkDeclared("ten", 10, BodyLimitTest::tooLarge,
                () -> new IllegalArgumentException("bad"))).isInstanceOf(IllegalArgumentException.class);
        assertThatNoException().isThrownBy(() -> BodyLimit.checkDeclared(" 10 ", 10,
                BodyLimitTest::tooLarge, () -> new IllegalArgumentException("bad")));
        assertThatNoException().isThrownBy(() -> BodyLimit.checkDeclared(null, 10,
                BodyLimitTest::tooLarge, () -> new IllegalArgumentException("bad")));
    }
}
