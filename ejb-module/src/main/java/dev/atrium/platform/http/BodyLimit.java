package dev.atrium.platform.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

import org.apache.commons.io.input.BoundedInputStream;

/**
 * Holds a request body to a number of bytes while it streams: a declared {@code Content-Length} above the limit
 * is refused before anything is read, and a body without one (chunked) is cut off with the caller's exception (a
 * 413, typically) as soon as it passes the limit, so that no reader ever holds more.
 */
public final class BodyLimit {

    private BodyLimit() {
    }

    /**
     * {@code in}, throwing {@code exceeded} once more than {@code max} bytes have come. commons-io's stream stops at
     * its maximum and calls back on the next read; one byte more from the source there means the body is too large,
     * none means it was exactly {@code max} bytes long.
     */
    public static InputStream bound(InputStream in, long max, Supplier<? extends RuntimeException> exceeded) {
        try {
            return BoundedInputStream.builder()
                    .setInputStream(in)
                    .setMaxCount(max)
                    .setOnMaxCount((limit, count) -> {
                        if (in.read() >= 0) {
                            throw exceeded.get();
                        }
                    })
                    .get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Refuses a declared {@code Content-Length} above {@code max} before anything is read; {@code badNumber} is
     * thrown for a header that is not a number. An absent header passes: the stream's count still holds.
     */
    public static void checkDeclared(String contentLength, long max, Supplier<? extends RuntimeException> exceeded,
                                     Supplier<? extends RuntimeException> badNumber) {
        if (contentLength == null) {
            return;
        }
        long length;
        try {
            length = Long.parseLong(contentLength.trim());
        } catch (NumberFormatException e) {
            throw badNumber.get();
        }
        if (length > max) {
            throw exceeded.get();
        }
    }
}
