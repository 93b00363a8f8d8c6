package dev.atrium.marketplace.entity.checks;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import dev.atrium.platform.http.JsonInput;

/**
 * The pre-listing checks of one submission or re-scan, in the order they ran. Rejects (or takes down) when any check
 * failed, that is when any finding is high. Stored as JSON text with the submission.
 */
public record SafetyReport(List<CheckResult> checks) {

    public static final SafetyReport NONE = new SafetyReport(List.of());

    public SafetyReport {
        checks = List.copyOf(checks);
    }

    public boolean rejects() {
        return checks.stream().anyMatch(CheckResult::failed);
    }

    public Optional<CheckResult> check(String name) {
        return checks.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public List<CheckFinding> high() {
        return checks.stream().flatMap(c -> c.findings().stream()).filter(f -> f.severity() == Severity.HIGH)
                .toList();
    }

    /** One line for the history: each check's status with its finding counts. */
    public String summary() {
        if (checks.isEmpty()) {
            return "No checks ran";
        }
        return checks.stream().map(c -> {
            String counts = List.of(Severity.HIGH, Severity.MEDIUM, Severity.LOW).stream()
                    .filter(s -> c.count(s) > 0).map(s -> c.count(s) + " " + s.value())
                    .collect(Collectors.joining(", "));
            return c.name() + " " + c.status().value() + (counts.isEmpty() ? "" : " (" + counts + ")");
        }).collect(Collectors.joining("; "));
    }

    public String toJson() {
        var array = JSON.createArrayBuilder();
        for (CheckResult c : checks) {
            var findings = JSON.createArrayBuilder();
            for (CheckFinding f : c.findings()) {
                findings.add(JSON.createObjectBuilder().add("severity", f.severity().value())
                        .add("pointer", f.pointer()).add("message", f.message()));
            }
            array.add(JSON.createObjectBuilder().add("name", c.name()).add("status", c.status().value())
                    .add("summary", c.summary()).add("findings", findings).add("duration_ms", c.durationMs()));
        }
        return array.build().toString();
    }

    /** Reads what {@link #toJson()} wrote; null or blank text is no report. */
    public static SafetyReport parse(String json) {
        if (json == null || json.isBlank()) {
            return NONE;
        }
        var checks = new ArrayList<CheckResult>();
        for (JsonValue v : (JsonArray) JsonInput.read(json)) {
            JsonObject c = v.asJsonObject();
            var findings = new ArrayList<CheckFinding>();
            for (JsonValue f : c.getJsonArray("findings")) {
                JsonObject o = f.asJsonObject();
                findings.add(new CheckFinding(Severity.of(o.getString("severity")), o.getString("pointer"),
                        o.getString("message")));
            }
            checks.add(new CheckResult(c.getString("name"), CheckStatus.of(c.getString("status")),
                    c.getString("summary"), findings, c.getJsonNumber("duration_ms").longValue()));
        }
        return new SafetyReport(checks);
    }
}
