package dev.atrium.platform.boundary;

import java.util.List;
import java.util.Map;

/** A cursor-paginated list: {@code items}, {@code limit} and {@code next_cursor} (null on the last slice). */
public record CursorEnvelope<T>(List<T> items, int limit, String nextCursor, Map<String, String> _links) {
}
