package dev.atrium.platform.patch;

import java.util.function.Consumer;

/**
 * One field of a partial update: absent (leave as it is) or present with a value, which may be null (clear it).
 * A record component alone cannot tell "not sent" from "sent as null"; this can.
 */
public record Change<T>(boolean present, T value) {

    private static final Change<?> ABSENT = new Change<>(false, null);

    @SuppressWarnings("unchecked")
    public static <T> Change<T> absent() {
        return (Change<T>) ABSENT;
    }

    public static <T> Change<T> to(T value) {
        return new Change<>(true, value);
    }

    public void ifPresent(Consumer<? super T> action) {
        if (present) {
            action.accept(value);
        }
    }
}
