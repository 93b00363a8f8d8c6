package dev.atrium.platform.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/**
 * Counts what is read and throws the caller's exception (a 413, typically) as soon as more than {@code max} bytes
 * have come, so that an upload is refused while it streams and never held whole.
 */
public final class BoundedInputStream extends FilterInputStream {

    private final long max;
    private final Supplier<? extends RuntimeException> exceeded;
    private long count;

    public BoundedInputStream(InputStream in, long max, Supplier<? extends RuntimeException> exceeded) {
        super(in);
        this.max = max;
        this.exceeded = exceeded;
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

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            add(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            add(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        add(skipped);
        return skipped;
    }

    private void add(long n) {
        count += n;
        if (count > max) {
            throw exceeded.get();
        }
    }
}
