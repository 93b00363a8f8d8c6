package dev.atrium.marketplace.control.runtime;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import com.networknt.schema.Schema;

import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.marketplace.control.submission.SubmissionProblem;
import dev.atrium.platform.http.JsonInput;

/**
 * The spec's input validation against a card: the input must be a JSON object satisfying the card's
 * {@code input_schema} (every {@code required} name present, declared types respected, and whatever else the schema
 * says). The answer is empty when valid, else the spec's {@code error} text naming the missing or wrongly typed
 * fields by JSON pointer.
 */
final class InputCheck {

    /** At most this many problems are named; the text has at most {@value #TEXT_MAX} characters. */
    static final int PROBLEMS_SHOWN = 20;
    static final int TEXT_MAX = 2000;

    private InputCheck() {
    }

    static Optional<String> problems(JsonValue input, String cardJson, CardValidator validator) {
        if (!(input instanceof JsonObject object)) {
            return Optional.of("The input must be a JSON object, not " + kind(input));
        }
        if (!(JsonInput.read(cardJson) instanceof JsonObject card)
                || !(card.get("input_schema") instanceof JsonObject schema)) {
            return Optional.empty();
        }
        return text(validator.validateAgainst(schema.toString(), object.toString()));
    }

    /** {@link #problems(JsonValue, String, CardValidator)} against the card's input schema compiled beforehand. */
    static Optional<String> problems(JsonValue input, Optional<Schema> inputSchema, CardValidator validator) {
        if (!(input instanceof JsonObject object)) {
            return Optional.of("The input must be a JSON object, not " + kind(input));
        }
        if (inputSchema.isEmpty()) {
            return Optional.empty();
        }
        return text(validator.validateAgainst(inputSchema.get(), object.toString()));
    }

    private static Optional<String> text(List<SubmissionProblem> problems) {
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        String text = problems.stream().limit(PROBLEMS_SHOWN)
                .map(p -> (p.pointer().isEmpty() ? "(input)" : p.pointer()) + ": " + p.message())
                .collect(Collectors.joining("; "));
        String more = problems.size() > PROBLEMS_SHOWN ? "; and " + (problems.size() - PROBLEMS_SHOWN) + " more" : "";
        int room = TEXT_MAX - more.length();
        return Optional.of((text.length() <= room ? text : text.substring(0, room - 1) + "…") + more);
    }

    private static String kind(JsonValue v) {
        return switch (v.getValueType()) {
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
            case OBJECT -> "an object";
        };
    }
}
