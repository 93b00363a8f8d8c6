package dev.atrium.platform.query;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A list request after parsing and validation: offset pagination ({@code page}, {@code pageSize}) or cursor
 * pagination ({@code cursor}, {@code limit}), sorting, equality filters (several values mean OR), free-text search,
 * a creation-time range and an optional id set. Which fields may be filtered and sorted is decided by the
 * {@link Catalog} of the entity listed; unknown sort fields are ignored.
 */
public record ListQuery(
        int page,
        int pageSize,
        boolean cursorMode,
        String cursor,
        int limit,
        List<SortField> sort,
        Map<String, List<String>> filters,
        String search,
        Instant createdAfter,
        Instant createdBefore,
        List<String> ids) {

    public static final int DEFAULT_PAGE_SIZE = 20;
    public static final int MAX_PAGE_SIZE = 100;
    public static final List<SortField> DEFAULT_SORT = List.of(new SortField("created_at", true));

    public ListQuery {
        sort = sort == null || sort.isEmpty() ? DEFAULT_SORT : List.copyOf(sort);
        filters = filters == null ? Map.of() : Map.copyOf(filters);
        ids = ids == null ? List.of() : List.copyOf(ids);
    }

    /** The first page with the defaults: what a list without parameters means. */
    public static ListQuery firstPage() {
        return new ListQuery(1, DEFAULT_PAGE_SIZE, false, null, DEFAULT_PAGE_SIZE, DEFAULT_SORT, Map.of(), null,
                null, null, List.of());
    }

    public int offset() {
        return (page - 1) * pageSize;
    }

    public Optional<List<String>> filter(String name) {
        return Optional.ofNullable(filters.get(name)).filter(v -> !v.isEmpty());
    }

    public ListQuery withFilter(String name, List<String> values) {
        var copy = new HashMap<>(filters);
        copy.put(name, List.copyOf(values));
        return new ListQuery(page, pageSize, cursorMode, cursor, limit, sort, copy, search, createdAfter,
                createdBefore, ids);
    }

    public ListQuery withoutFilter(String name) {
        var copy = new HashMap<>(filters);
        copy.remove(name);
        return new ListQuery(page, pageSize, cursorMode, cursor, limit, sort, copy, search, createdAfter,
                createdBefore, ids);
    }
}
