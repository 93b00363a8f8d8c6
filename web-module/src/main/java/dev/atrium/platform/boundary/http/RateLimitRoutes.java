package dev.atrium.platform.boundary.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.PlatformConfig;

/**
 * Per-route limits: {@code atrium.rate-limit.routes} holds entries {@code METHOD /path-prefix=limit} (method
 * {@code *} for any), each with its own bucket; the longest matching prefix wins; everything else shares the
 * default bucket of {@code atrium.rate-limit.per-minute}.
 */
@ApplicationScoped
public class RateLimitRoutes {

    private static final Logger LOG = Logger.getLogger(RateLimitRoutes.class.getName());

    /** A bucket: its name and the requests it allows per minute. */
    public record Route(String name, String method, String prefix, int perMinute) {

        boolean matches(String requestMethod, String path) {
            return (method.equals("*") || method.equals(requestMethod))
                    && (path.equals(prefix) || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/"));
        }
    }

    @Inject
    @ConfigProperties
    PlatformConfig platformConfig;

    @Inject
    Config config;

    private List<Route> routes = List.of();

    @PostConstruct
    void parse() {
        var parsed = new ArrayList<Route>();
        for (String entry : config.getOptionalValues("atrium.rate-limit.routes", String.class).orElse(List.of())) {
            var m = Pattern.compile("^\\s*(\\*|[A-Za-z]+)\\s+(/\\S*)\\s*=\\s*(\\d+)\\s*$")
                    .matcher(entry);
            if (!m.matches()) {
                LOG.severe(() -> "Ignoring atrium.rate-limit.routes entry '" + entry + "': expected METHOD /path=limit");
                continue;
            }
            String method = m.group(1).toUpperCase(Locale.ROOT);
            parsed.add(new Route(method + " " + m.group(2), method, m.group(2), Integer.parseInt(m.group(3))));
        }
        parsed.sort(Comparator.comparingInt((Route r) -> r.prefix().length()).reversed());
        routes = List.copyOf(parsed);
    }

    public Route match(String method, String path) {
        return routes.stream().filter(r -> r.matches(method, path)).findFirst()
                .orElseGet(() -> new Route("default", "*", "/", platformConfig.rateLimitPerMinute));
    }
}
