package dev.atrium.marketplace.control.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import dev.atrium.marketplace.control.runtime.AgentProtocol;
import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.sandbox.RunResult;

/**
 * Check 1, the smoke tests: the first {@value #SMOKE_TEST_CASES} test cases run in the sandbox;
 * each must answer through the agent protocol, with an output valid against {@code output_schema} and holding the
 * {@code expected} properties with the same values (numbers compare by value, so {@code 1} equals {@code 1.0}).
 * A failing case is a high finding: the submission is rejected with the reason.
 */
public final class SmokeTestCheck {

    public static final String NAME = "smoke_tests";
    /** Smoke tests run at most this many of a card's test cases. */
    static final int SMOKE_TEST_CASES = 3;

    private final CardValidator validator;

    SmokeTestCheck(CardValidator validator) {
        this.validator = validator;
    }

    /** The findings; {@code passed} counts the cases that passed. */
    record Outcome(List<CheckFinding> findings, int run, int passed) {
    }

    Outcome check(CheckRunner runner) {
        var findings = new ArrayList<CheckFinding>();
        var cases = runner.card().testCases();
        int run = 0;
        int passed = 0;
        for (CheckedCard.TestCase c : cases.subList(0, Math.min(cases.size(), SMOKE_TEST_CASES))) {
            String pointer = "/test_cases/" + c.index();
            var limits = runner.limits();
            Optional<RunResult> result = runner.run("test_cases/" + c.index(), true, c.input(), Map.of(), limits);
            if (result.isEmpty()) {
                findings.add(CheckFinding.high(pointer, "Not run: the checks' time budget was spent"));
                continue;
            }
            run++;
            String failure = failure(result.get(), limits.timeout().toSeconds(), runner.card(), c);
            if (failure == null) {
                passed++;
            } else {
                findings.add(CheckFinding.high(pointer, failure + log(result.get())));
            }
        }
        return new Outcome(findings, run, passed);
    }

    private String failure(RunResult result, long timeoutSeconds, CheckedCard card, CheckedCard.TestCase c) {
        AgentProtocol.Reply reply = AgentProtocol.read(result, Math.max(1, timeoutSeconds));
        if (!reply.ok()) {
            return reply.error();
        }
        JsonObject output = reply.output().orElseThrow();
        var problems = validator.validateAgainst(card.outputSchema(), output.toString());
        if (!problems.isEmpty()) {
            return "The output does not match output_schema: " + problems.get(0).pointer() + " "
                    + problems.get(0).message();
        }
        for (Map.Entry<String, JsonValue> e : c.expected().entrySet()) {
            JsonValue actual = output.get(e.getKey());
            if (actual == null || !same(actual, e.getValue())) {
                return "Expected output property \"" + e.getKey() + "\" to be " + brief(e.getValue()) + ", got "
                        + (actual == null ? "nothing" : brief(actual));
            }
        }
        return null;
    }

    /** JSON equality where numbers compare by value. */
    static boolean same(JsonValue a, JsonValue b) {
        if (a instanceof JsonNumber x && b instanceof JsonNumber y) {
            return x.bigDecimalValue().compareTo(y.bigDecimalValue()) == 0;
        }
        if (a instanceof JsonObject x && b instanceof JsonObject y) {
            return x.keySet().equals(y.keySet()) && x.keySet().stream().allMatch(k -> same(x.get(k), y.get(k)));
        }
        if (a.getValueType() == JsonValue.ValueType.ARRAY && b.getValueType() == JsonValue.ValueType.ARRAY) {
            var x = a.asJsonArray();
            var y = b.asJsonArray();
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static String brief(JsonValue v) {
        String text = v.toString();
        return text.length() > 100 ? text.substring(0, 100) + "…" : text;
    }

    /** The start of the agent's own log, which its author needs to see why a test failed. */
    private static String log(RunResult result) {
        String log = result.stderrText().strip();
        if (log.isEmpty()) {
            return "";
        }
        return " (log: " + (log.length() > 200 ? log.substring(0, 200) + "…" : log) + ")";
    }
}
