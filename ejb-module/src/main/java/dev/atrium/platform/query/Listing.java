package dev.atrium.platform.query;

import java.util.List;
import java.util.function.Function;

/**
 * One page of a list. In offset mode {@code total}, {@code page} and {@code pageSize} are set; in cursor mode
 * {@code limit} and {@code nextCursor} (null on the last slice) are.
 */
public record Listing<T>(List<T> items, long total, int page, int pageSize, boolean cursorMode, int limit,
                         String nextCursor) {

    public Listing {
        items = List.copyOf(items);
    }

    public <R> Listing<R> map(Function<? super T, ? extends R> mapper) {
        return new Listing<>(items.stream().<R>map(mapper).toList(), total, page, pageSize, cursorMode, limit,
                nextCursor);
    }
}
