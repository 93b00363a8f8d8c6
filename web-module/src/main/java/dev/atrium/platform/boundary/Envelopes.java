package dev.atrium.platform.boundary;

import java.util.LinkedHashMap;
import java.util.function.Function;

import jakarta.ws.rs.core.UriInfo;

import dev.atrium.platform.query.Listing;

/** Wraps a {@link Listing} in the envelope of its pagination mode, with {@code self}, {@code next}, {@code prev}. */
public final class Envelopes {

    private Envelopes() {
    }

    public static <E, T> Object of(Listing<E> listing, UriInfo uri, Function<? super E, ? extends T> mapper) {
        Listing<T> mapped = listing.map(mapper);
        var links = new LinkedHashMap<String, String>();
        links.put("self", relative(uri, null, null));
        if (mapped.cursorMode()) {
            if (mapped.nextCursor() != null) {
                links.put("next", relative(uri, "cursor", mapped.nextCursor()));
            }
            return new CursorEnvelope<>(mapped.items(), mapped.limit(), mapped.nextCursor(), links);
        }
        if ((long) mapped.page() * mapped.pageSize() < mapped.total()) {
            links.put("next", relative(uri, "page", Integer.toString(mapped.page() + 1)));
        }
        if (mapped.page() > 1) {
            links.put("prev", relative(uri, "page", Integer.toString(mapped.page() - 1)));
        }
        return new ListEnvelope<>(mapped.items(), mapped.total(), mapped.page(), mapped.pageSize(), links);
    }

    private static String relative(UriInfo uri, String param, String value) {
        var builder = uri.getRequestUriBuilder();
        if (param != null) {
            builder.replaceQueryParam(param, value);
        }
        var target = builder.build();
        return target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
    }
}
