package dev.atrium.content.boundary;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.content.control.ArticlesVersion;
import dev.atrium.content.control.ContentConfig;
import dev.atrium.content.control.Viewer;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.json.Json;

/**
 * Rendered article lists, kept as the JSON sent (its UTF-8 bytes, written out as they are): a list is made again only after an article changed (on any
 * instance: {@link ArticlesVersion}, read before the list is made), after {@code atrium.content.list-cache-seconds}
 * (60; 0 turns the cache off), or for a request it does not serve. Keyed by the viewer (a user sees their own drafts)
 * and the whole request URI (the links are built from it). Not served from here: {@code expand=author} (a user's
 * name may change without an article changing) and {@code fields} (shaped by its filter from the list's object);
 * nor any list when the version cannot be read. At most {@value #MAX_PAGES} lists and {@value #MAX_BYTES} bytes are
 * kept; a list that would pass either starts the cache afresh (so requests made up to fill it only cost their own
 * lists), and one longer than {@value #MAX_PAGE_BYTES} bytes is not kept.
 */
@ApplicationScoped
public class ArticlePages {

    static final int MAX_PAGES = 2_000;
    static final long MAX_BYTES = 16_000_000;
    static final int MAX_PAGE_BYTES = 1_000_000;

    @Inject
    ArticlesVersion version;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    ContentConfig config;

    private final AtomicReference<Generation> current = new AtomicReference<>(new Generation(""));

    /** The lists of one version. */
    private record Generation(String version, ConcurrentHashMap<String, Page> pages, AtomicLong bytes) {

        Generation(String version) {
            this(version, new ConcurrentHashMap<>(), new AtomicLong());
        }
    }

    private record Page(byte[] json, Instant madeAt) {
    }

    /**
     * The list for this viewer and request: the kept JSON, or {@code render}'s list, written as JSON and kept; where
     * the cache does not serve, {@code render}'s list itself.
     */
    public Object list(Viewer viewer, UriInfo uri, Supplier<Object> render) {
        long seconds = config.listCacheSeconds;
        if (seconds <= 0 || !served(uri)) {
            return render.get();
        }
        var known = version.current();
        if (known.isEmpty()) {
            return render.get();
        }
        Generation generation = generation(known.get());
        String key = (viewer.isAnonymous() ? "-" : viewer.userId() + (viewer.admin() ? "a" : "")) + " "
                + uri.getRequestUri();
        Instant now = clock.instant();
        Page page = generation.pages().get(key);
        if (page != null && now.isBefore(page.madeAt().plusSeconds(seconds))) {
            return page.json();
        }
        byte[] json = Json.write(render.get()).getBytes(StandardCharsets.UTF_8);
        keep(generation, key, new Page(json, now));
        return json;
    }

    private static boolean served(UriInfo uri) {
        Set<String> expand = ListRequest.expand(uri);
        return !expand.contains("author") && !uri.getQueryParameters().containsKey("fields");
    }

    private Generation generation(String known) {
        Generation generation = current.get();
        if (generation.version().equals(known)) {
            return generation;
        }
        var fresh = new Generation(known);
        // a request that read an older version may put in its own; the next one, reading the newer, replaces it
        current.compareAndSet(generation, fresh);
        return fresh;
    }

    private void keep(Generation generation, String key, Page page) {
        int length = page.json().length;
        if (length > MAX_PAGE_BYTES) {
            return;
        }
        Generation target = generation;
        if (target.pages().size() >= MAX_PAGES || target.bytes().get() + length > MAX_BYTES) {
            target = new Generation(generation.version());
            if (!current.compareAndSet(generation, target)) {
                return;
            }
        }
        Page replaced = target.pages().put(key, page);
        target.bytes().addAndGet(length - (replaced == null ? 0 : replaced.json().length));
    }
}
