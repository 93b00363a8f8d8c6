package dev.atrium.sdk;

import java.math.BigDecimal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One run of an agent as the invoke answer reports it: the agent's output and the run's metadata from the
 * {@code Atrium-*} headers.
 *
 * @param agent        the agent as it was named in the call (id or name)
 * @param output       the agent's output; for a run that did not succeed, the server's {@code {"error": …}} object
 * @param runId        the run record's id ({@code GET /v1/runs/{id}})
 * @param agentVersion the version that served the call
 * @param status       {@code succeeded}, {@code failed}, {@code timed_out}, {@code memory_limit}, …
 * @param durationMs   the run's duration in the sandbox
 * @param tokensInput  tokens the agent reported reading
 * @param tokensOutput tokens the agent reported writing
 * @param priceUsd     what the call was charged
 */
public record Invocation(String agent, JsonNode output, String runId, String agentVersion, String status,
                         long durationMs, long tokensInput, long tokensOutput, BigDecimal priceUsd) {

    public boolean succeeded() {
        return "succeeded".equals(status);
    }

    /** The server's error text of a run that did not succeed, if its output carries one. */
    String errorText() {
        return output != null && output.path("error").isTextual() ? output.get("error").asText() : null;
    }
}
