package dev.atrium.marketplace.control.checks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import dev.atrium.marketplace.entity.checks.Severity;
import dev.atrium.platform.http.JsonInput;

/**
 * Known vulnerabilities, read from a JSON array of OSV records (https://ossf.github.io/osv-schema/): each record's
 * {@code id}, {@code aliases}, {@code summary}, and per {@code affected} entry the {@code package} ({@code ecosystem}
 * {@code PyPI}, {@code npm}, {@code Maven} or {@code Debian:<release>} (for an image's installed packages); {@code name},
 * for Maven {@code groupId:artifactId}), its
 * {@code versions} listed one by one and its {@code ECOSYSTEM} or {@code SEMVER} {@code ranges} of
 * {@code introduced}/{@code fixed}/{@code last_affected} events. The severity is
 * {@code database_specific.severity} (GitHub's {@code LOW}/{@code MODERATE}/{@code HIGH}/{@code CRITICAL}, also
 * read from {@code affected[].ecosystem_specific.severity}): {@code HIGH} and {@code CRITICAL} are high findings,
 * anything else (or none) medium. Records of other ecosystems are kept out; a record that cannot be read is skipped.
 */
final class Advisories {

    static final String RESOURCE = "marketplace/advisories.osv.json";

    /** One affected package of one advisory. */
    record Advisory(String id, List<String> aliases, String summary, String ecosystem, String name,
                    List<String> versions, List<List<Event>> ranges, Severity severity) {

        boolean affects(String version) {
            Comparator<String> order = order();
            if (versions.stream().anyMatch(v -> order.compare(v, version) == 0)) {
                return true;
            }
            return ranges.stream().anyMatch(r -> inRange(order, r, version));
        }

        /** Debian's own version order for its packages, the generic one for the others. */
        private Comparator<String> order() {
            return ecosystem.equals("Debian") ? DebianVersionOrder.INSTANCE : VersionOrder.INSTANCE;
        }

        /** Events in order: each introduced opens an interval that the next fixed or last_affected closes. */
        private static boolean inRange(Comparator<String> order, List<Event> events, String version) {
            String introduced = null;
            for (Event e : events) {
                switch (e.kind()) {
                    case "introduced" -> introduced = e.version();
                    case "fixed", "last_affected" -> {
                        if (introduced != null && at(order, introduced, version)) {
                            int c = order.compare(version, e.version());
                            if (e.kind().equals("fixed") ? c < 0 : c <= 0) {
                                return true;
                            }
                        }
                        introduced = null;
                    }
                    default -> {
                    }
                }
            }
            return introduced != null && at(order, introduced, version);
        }

        private static boolean at(Comparator<String> order, String introduced, String version) {
            return introduced.equals("0") || order.compare(version, introduced) >= 0;
        }

        /** The advisory's name for a finding: its CVE alias when it has one, next to its own id. */
        String label() {
            String cve = aliases.stream().filter(a -> a.startsWith("CVE-")).findFirst().orElse(null);
            return cve == null ? id : id + " (" + cve + ")";
        }
    }

    record Event(String kind, String version) {
    }

    private final List<Advisory> advisories;
    private final String fingerprint;

    private Advisories(List<Advisory> advisories) {
        this.advisories = List.copyOf(advisories);
        this.fingerprint = fingerprint(this.advisories);
    }

    /**
     * What the records say, as 16 hex digits of a SHA-256 over the advisories as read: the same records give the same
     * fingerprint however the file is formatted, so only a change of the data starts a re-scan of the listed agents.
     */
    String fingerprint() {
        return fingerprint;
    }

    private static String fingerprint(List<Advisory> advisories) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(advisories.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The advisory file at {@code path}, or the bundled one when {@code path} is blank. */
    static Advisories load(String path) {
        if (path == null || path.isBlank()) {
            try (InputStream in = Advisories.class.getClassLoader().getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("Missing " + RESOURCE);
                }
                return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try {
            return parse(Files.readString(Path.of(path), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("The advisory file " + path + " cannot be read", e);
        }
    }

    static Advisories parse(String json) {
        JsonValue root = JsonInput.read(json);
        var out = new ArrayList<Advisory>();
        if (root instanceof JsonArray records) {
            for (JsonValue v : records) {
                if (v instanceof JsonObject record) {
                    try {
                        read(record, out);
                    } catch (RuntimeException skipped) {
                        // one unreadable record must not hide the others
                    }
                }
            }
        }
        return new Advisories(out);
    }

    private static void read(JsonObject record, List<Advisory> out) {
        String id = record.getString("id");
        List<String> aliases = strings(record.get("aliases"));
        String summary = record.getString("summary", record.getString("details", ""));
        Severity recordSeverity = severity(record.get("database_specific"));
        if (!(record.get("affected") instanceof JsonArray affected)) {
            return;
        }
        for (JsonValue a : affected) {
            if (!(a instanceof JsonObject entry) || !(entry.get("package") instanceof JsonObject pkg)) {
                continue;
            }
            String ecosystem = pkg.getString("ecosystem", "");
            // Debian's records name the release (Debian:12); an image's dpkg status is compared with all of them
            if (ecosystem.startsWith("Debian")) {
                ecosystem = "Debian";
            }
            if (!List.of("PyPI", "npm", "Maven", "Debian").contains(ecosystem)) {
                continue;
            }
            var ranges = new ArrayList<List<Event>>();
            if (entry.get("ranges") instanceof JsonArray rs) {
                for (JsonValue r : rs) {
                    if (r instanceof JsonObject range
                            && List.of("ECOSYSTEM", "SEMVER").contains(range.getString("type", ""))
                            && range.get("events") instanceof JsonArray events) {
                        var list = new ArrayList<Event>();
                        for (JsonValue e : events) {
                            if (e instanceof JsonObject event) {
                                for (String kind : List.of("introduced", "fixed", "last_affected")) {
                                    if (event.get(kind) instanceof JsonString s) {
                                        list.add(new Event(kind, s.getString()));
                                    }
                                }
                            }
                        }
                        ranges.add(list);
                    }
                }
            }
            Severity own = severity(entry.get("ecosystem_specific"));
            Severity severity = own != null ? own : recordSeverity != null ? recordSeverity : Severity.MEDIUM;
            out.add(new Advisory(id, aliases, summary, ecosystem, Manifests.normalize(ecosystem, pkg.getString("name")),
                    strings(entry.get("versions")), ranges, severity));
        }
    }

    private static Severity severity(JsonValue specific) {
        if (specific instanceof JsonObject o && o.get("severity") instanceof JsonString s) {
            String level = s.getString().toUpperCase(Locale.ROOT);
            return level.equals("HIGH") || level.equals("CRITICAL") ? Severity.HIGH : Severity.MEDIUM;
        }
        return null;
    }

    private static List<String> strings(JsonValue v) {
        return v instanceof JsonArray a ? a.stream().filter(JsonString.class::isInstance)
                .map(e -> ((JsonString) e).getString()).toList() : List.of();
    }

    int size() {
        return advisories.size();
    }

    /** The advisories that affect this version of this package. */
    List<Advisory> affecting(Manifests.Dependency dependency) {
        return advisories.stream().filter(a -> a.ecosystem().equals(dependency.ecosystem())
                && a.name().equals(dependency.name()) && a.affects(dependency.version())).toList();
    }
}
