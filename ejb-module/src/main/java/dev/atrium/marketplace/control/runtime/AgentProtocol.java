package dev.atrium.marketplace.control.runtime;

import java.util.Optional;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.http.JsonInput;
import dev.atrium.sandbox.RunResult;

/**
 * The agent's side of the contract (docs/decisions/marketplace.md, "The agent author's contract"): one JSON object on
 * stdout with {@code output} (an object) and an optional {@code usage} ({@code tokens_input}, {@code tokens_output},
 * {@code cost_llm}); stderr is the log. Reading a run gives either the output with its usage, or an error text fit for
 * the caller (never the agent's raw stdout).
 */
public final class AgentProtocol {

    /** What the agent reported it used; zeros when it reported nothing. */
    public record Usage(long tokensInput, long tokensOutput, double costLlm) {
        public static final Usage NONE = new Usage(0, 0, 0);
    }

    /** A run read through the protocol: {@code output} present on success, {@code error} otherwise. */
    public record Reply(Optional<JsonObject> output, Usage usage, String error) {

        public boolean ok() {
            return output.isPresent();
        }

        static Reply failed(String error) {
            return new Reply(Optional.empty(), Usage.NONE, error);
        }
    }

    private AgentProtocol() {
    }

    public static Reply read(RunResult run, long timeoutSeconds) {
        return switch (run.outcome()) {
            case TIMED_OUT -> Reply.failed("The agent timed out after " + timeoutSeconds + " s");
            case MEMORY_LIMIT -> Reply.failed("The agent ran out of memory");
            case OUTPUT_LIMIT -> Reply.failed("The agent wrote more output than allowed");
            case KILLED -> Reply.failed("The agent was stopped by the sandbox");
            case EXITED -> run.exitCode() != 0 ? Reply.failed("The agent exited with code " + run.exitCode())
                    : parse(run);
        };
    }

    private static Reply parse(RunResult run) {
        JsonObject reply;
        try {
            JsonValue v = JsonInput.read(run.stdoutText().strip());
            if (!(v instanceof JsonObject o)) {
                return Reply.failed("The agent's stdout is not a JSON object");
            }
            reply = o;
        } catch (BusinessException e) {
            return Reply.failed("The agent's stdout is not a JSON object");
        }
        if (!(reply.get("output") instanceof JsonObject output)) {
            return Reply.failed("The agent's reply has no \"output\" object");
        }
        Usage usage = Usage.NONE;
        if (reply.get("usage") instanceof JsonObject u) {
            usage = new Usage(count(u, "tokens_input"), count(u, "tokens_output"), amount(u, "cost_llm"));
        }
        return new Reply(Optional.of(output), usage, null);
    }

    private static long count(JsonObject u, String name) {
        return u.get(name) instanceof JsonNumber n && n.isIntegral() && n.longValue() >= 0
                ? Math.min(n.longValue(), Integer.MAX_VALUE) : 0;
    }

    private static double amount(JsonObject u, String name) {
        if (u.get(name) instanceof JsonNumber n) {
            double d = n.doubleValue();
            return Double.isFinite(d) && d >= 0 ? Math.min(d, 1_000_000) : 0;
        }
        return 0;
    }
}
