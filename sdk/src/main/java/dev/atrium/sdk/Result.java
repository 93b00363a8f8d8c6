package dev.atrium.sdk;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a {@link Step} produced: its output, the runs that made it, in the order they finished, and the errors it
 * recovered from (a fallback's failed primary, a collect-all parallel step's failed branches).
 */
public record Result(JsonNode output, List<Invocation> invocations, List<AtriumException> recovered) {

    public Result {
        invocations = List.copyOf(invocations);
        recovered = List.copyOf(recovered);
    }

    static Result of(Invocation invocation) {
        return new Result(invocation.output(), List.of(invocation), List.of());
    }

    /** This result's runs and recoveries before {@code later}'s, with {@code later}'s output. */
    Result then(Result later) {
        return new Result(later.output, concat(invocations, later.invocations), concat(recovered, later.recovered));
    }

    Result withOutput(JsonNode output) {
        return new Result(output, invocations, recovered);
    }

    Result recovering(List<AtriumException> errors) {
        return new Result(output, invocations, concat(errors, recovered));
    }

    /** The total price of the runs, in USD. */
    public BigDecimal priceUsd() {
        return invocations.stream().map(Invocation::priceUsd).reduce(BigDecimal.ZERO,
                BigDecimal::add);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        var all = new ArrayList<T>(a);
        all.addAll(b);
        return all;
    }
}
