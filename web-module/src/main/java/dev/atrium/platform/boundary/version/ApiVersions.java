package dev.atrium.platform.boundary.version;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

/**
 * Deprecated API versions from {@code atrium.api.deprecations}: entries {@code prefix|since|sunset|successor},
 * for example {@code /api/v1|2026-01-01|2026-07-01|/api/v2}. Until the sunset date responses carry
 * {@code Deprecation}, {@code Sunset} and {@code Link rel=successor-version}; from then on the prefix answers 410.
 * The spec requires at least six months between deprecation and retirement, so an earlier sunset is moved.
 */
@ApplicationScoped
public class ApiVersions {

    private static final Logger LOG = Logger.getLogger(ApiVersions.class.getName());

    /** One deprecated path prefix. */
    public record Deprecation(String prefix, Instant since, Instant sunset, String successor) {

        boolean covers(String path) {
            return path.equals(prefix) || path.startsWith(prefix + "/");
        }

        String successorFor(String path) {
            return successor + path.substring(prefix.length());
        }
    }

    @Inject
    Config config;

    private List<Deprecation> deprecations = List.of();

    @PostConstruct
    void parse() {
        var parsed = new ArrayList<Deprecation>();
        for (String entry : config.getOptionalValues("atrium.api.deprecations", String.class).orElse(List.of())) {
            String[] parts = entry.trim().split("\\|");
            if (parts.length != 4 || !parts[0].startsWith("/") || !parts[3].startsWith("/")) {
                LOG.severe(() -> "Ignoring atrium.api.deprecations entry '" + entry
                        + "': expected prefix|since|sunset|successor");
                continue;
            }
            try {
                Instant since = LocalDate.parse(parts[1]).atStartOfDay(ZoneOffset.UTC).toInstant();
                Instant sunset = LocalDate.parse(parts[2]).atStartOfDay(ZoneOffset.UTC).toInstant();
                Instant earliest = since.atZone(ZoneOffset.UTC).plusMonths(6).toInstant();
                if (sunset.isBefore(earliest)) {
                    LOG.warning(() -> "Sunset of " + parts[0] + " moved to " + earliest
                            + ": a version stays at least six months after its deprecation");
                    sunset = earliest;
                }
                parsed.add(new Deprecation(strip(parts[0]), since, sunset, strip(parts[3])));
            } catch (DateTimeParseException e) {
                LOG.severe(() -> "Ignoring atrium.api.deprecations entry '" + entry + "': dates must be YYYY-MM-DD");
            }
        }
        parsed.sort(Comparator.comparingInt((Deprecation d) -> d.prefix().length()).reversed());
        deprecations = List.copyOf(parsed);
    }

    /** Every deprecated prefix, the longest first. */
    public List<Deprecation> all() {
        return deprecations;
    }

    public Optional<Deprecation> find(String path) {
        return deprecations.stream().filter(d -> d.covers(path)).findFirst();
    }

    private static String strip(String prefix) {
        return prefix.length() > 1 && prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    }
}
