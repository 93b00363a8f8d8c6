package dev.atrium.platform.boundary;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.SortField;
import dev.atrium.platform.query.Values;

/**
 * Reads the list conventions of spec 01 from a query string: {@code page}/{@code page_size} or
 * {@code cursor}/{@code limit}, {@code sort}, {@code search}, {@code created_after}/{@code created_before},
 * {@code ids}; every other parameter is an equality filter whose comma-separated values mean OR. Values out of
 * range are 422 with code 40001.
 */
public final class ListRequest {

    static final Set<String> RESERVED = Set.of("page", "page_size", "cursor", "limit", "sort", "fields", "expand",
            "search", "created_after", "created_before", "ids");
    static final int SEARCH_MAX = 200;

    private ListRequest() {
    }

    public static ListQuery from(UriInfo uri) {
        return from(uri.getQueryParameters());
    }

    public static ListQuery from(MultivaluedMap<String, String> params) {
        boolean cursorMode = params.containsKey("cursor") || params.containsKey("limit");
        int page = integer(params, "page", 1, 1, Integer.MAX_VALUE / ListQuery.MAX_PAGE_SIZE);
        int pageSize = integer(params, "page_size", ListQuery.DEFAULT_PAGE_SIZE, 1, ListQuery.MAX_PAGE_SIZE);
        int limit = integer(params, "limit", ListQuery.DEFAULT_PAGE_SIZE, 1, ListQuery.MAX_PAGE_SIZE);
        if (cursorMode && (params.containsKey("page") || params.containsKey("page_size"))) {
            throw BusinessException.validation("Use either page/page_size or cursor/limit, not both");
        }
        var sort = new ArrayList<SortField>();
        for (String term : commaList(params.getFirst("sort"))) {
            sort.add(SortField.parse(term));
        }
        String search = params.getFirst("search");
        if (search != null && search.length() > SEARCH_MAX) {
            throw BusinessException.validation("search: at most " + SEARCH_MAX + " characters");
        }
        Instant after = instant(params, "created_after");
        Instant before = instant(params, "created_before");
        var filters = new LinkedHashMap<String, List<String>>();
        params.forEach((name, values) -> {
            if (!RESERVED.contains(name)) {
                var all = values.stream().flatMap(v -> commaList(v).stream()).distinct().toList();
                if (!all.isEmpty()) {
                    filters.put(name, all);
                }
            }
        });
        List<String> ids = commaList(params.getFirst("ids"));
        if (ids.size() > ListQuery.MAX_PAGE_SIZE) {
            throw BusinessException.validation("ids: at most " + ListQuery.MAX_PAGE_SIZE + " ids");
        }
        return new ListQuery(page, pageSize, cursorMode, params.getFirst("cursor"), limit, sort, filters,
                search == null || search.isBlank() ? null : search, after, before, ids);
    }

    /** The names in {@code expand=a,b}. */
    public static Set<String> expand(UriInfo uri) {
        return new LinkedHashSet<>(commaList(uri.getQueryParameters().getFirst("expand")));
    }

    static List<String> commaList(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static int integer(MultivaluedMap<String, String> params, String name, int fallback, int min, int max) {
        String raw = params.getFirst(name);
        if (raw == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below with the allowed range
        }
        throw BusinessException.validation(name + ": must be an integer from " + min + " to " + max);
    }

    private static Instant instant(MultivaluedMap<String, String> params, String name) {
        String raw = params.getFirst(name);
        return raw == null || raw.isBlank() ? null : Values.instant(name, raw.trim());
    }
}
