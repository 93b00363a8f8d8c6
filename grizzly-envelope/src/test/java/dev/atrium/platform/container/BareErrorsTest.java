package dev.atrium.platform.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.memory.CompositeBuffer;
import org.glassfish.grizzly.memory.MemoryManager;
import org.junit.jupiter.api.Test;

class BareErrorsTest {

    private static final MemoryManager MEMORY = MemoryManager.DEFAULT_MEMORY_MANAGER;

    @Test
    void whenAWriteLooksLikeABareErrorThenItsBytesAreReadWithoutMovingTheBuffer() {
        Buffer buffer = buffer("xx" + RefusalTest.CODEC_400);
        buffer.position(2);
        assertThat(new String(BareErrors.head(buffer), StandardCharsets.ISO_8859_1)).isEqualTo(RefusalTest.CODEC_400);
        assertThat(buffer.position()).isEqualTo(2);
        assertThat(buffer.remaining()).isEqualTo(RefusalTest.CODEC_400.length());
    }

    @Test
    void whenAWriteIsSplitOverBuffersThenItIsReadWhole() {
        String text = RefusalTest.CODEC_505;
        CompositeBuffer composite = CompositeBuffer.newBuffer(MEMORY, buffer(text.substring(0, 20)),
                buffer(text.substring(20)));
        assertThat(new String(BareErrors.head(composite), StandardCharsets.ISO_8859_1)).isEqualTo(text);
    }

    @Test
    void whenAWriteCannotBeABareErrorThenOnlyAFewBytesAreLookedAt() {
        assertThat(BareErrors.head(buffer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))).isNull();
        assertThat(BareErrors.head(buffer("HTTP/1.1 302 Found\r\nContent-Length: 0\r\n\r\n"))).isNull();
        assertThat(BareErrors.head(buffer("{\"error\":{\"code\":40000}}\r\n\r\n"))).isNull();
        assertThat(BareErrors.head(buffer("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n{}"))).isNull();
        assertThat(BareErrors.head(buffer("HTTP/1.1 400"))).isNull();
        assertThat(BareErrors.head(buffer("HTTP/1.1 400 Bad Request\r\nX-Big: " + "a".repeat(3000) + "\r\n\r\n")))
                .isNull();
        assertThat(BareErrors.head(Buffers.EMPTY_BUFFER)).isNull();
    }

    private static Buffer buffer(String text) {
        return Buffers.wrap(MEMORY, text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
