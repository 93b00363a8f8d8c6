package dev.atrium.sdk;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * One immutable step of a composition of agents, the spec's pipeline, parallel, branch and fallback, each itself a
 * step so that they nest:
 * <pre>{@code
 * Step flow = Step.pipeline(
 *         Step.agent("extract-text"),
 *         Step.fallback(Step.agent("summarize-fast").timeout(Duration.ofSeconds(5)), Step.agent("summarize")),
 *         Step.parallel(Step.agent("translate-fr"), Step.agent("translate-de")));
 * Result result = flow.run(client, Map.of("url", "https://example.com/report.pdf"));
 * }</pre>
 * A step fails with an {@link AtriumException}: the server refused a call, or a run did not succeed
 * ({@link AtriumException.RunFailed}).
 */
@FunctionalInterface
public interface Step {

    /** Runs the step on {@code input}; the future fails with an {@link AtriumException}. */
    CompletableFuture<Result> apply(AtriumClient client, JsonNode input);

    /** Runs the step and waits for it; {@code input} as {@link AtriumClient#invoke} takes it. */
    default Result run(AtriumClient client, Object input) {
        JsonNode node = input instanceof JsonNode json ? json : client.json().valueToTree(input);
        return AtriumClient.join(start(this, client, node));
    }

    /** Invokes the agent (id or name) with the step's input; fails when the run does not succeed. */
    static Step agent(String agent) {
        Objects.requireNonNull(agent, "agent");
        return (client, input) -> client.invokeAsync(agent, input).thenApply(invocation -> {
            if (!invocation.succeeded()) {
                throw new AtriumException.RunFailed(invocation);
            }
            return Result.of(invocation);
        });
    }

    /** This step, then {@code next} on its output. */
    default Step then(Step next) {
        Objects.requireNonNull(next, "next");
        Step first = this;
        return (client, input) -> start(first, client, input)
                .thenCompose(done -> start(next, client, done.output()).thenApply(done::then));
    }

    /** This step with its output changed by {@code mapping} (to a {@code JsonNode} or anything Jackson writes). */
    default Step map(Function<JsonNode, ?> mapping) {
        Objects.requireNonNull(mapping, "mapping");
        Step step = this;
        return (client, input) -> start(step, client, input).thenApply(done -> {
            Object mapped = mapping.apply(done.output());
            return done.withOutput(mapped instanceof JsonNode node ? node : client.json().valueToTree(mapped));
        });
    }

    /** This step, failing with {@link AtriumException.Timeout} when it has not finished within {@code limit}. */
    default Step timeout(Duration limit) {
        if (limit == null || limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("The limit must be positive");
        }
        Step step = this;
        return (client, input) -> start(step, client, input)
                .orTimeout(limit.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        cause(failure) instanceof TimeoutException t
                                ? new AtriumException.Timeout("The step took longer than " + limit, t)
                                : cause(failure)));
    }

    /** Serial: each step's output is the next one's input. */
    static Step pipeline(Step first, Step... rest) {
        Step flow = Objects.requireNonNull(first, "first");
        for (Step next : rest) {
            flow = flow.then(next);
        }
        return flow;
    }

    /** What a parallel step does when a branch fails. */
    enum OnFailure {
        /** The step fails with the first branch that fails, without waiting for the others. */
        FAIL_FAST,
        /** Every branch runs to its end; a failed one's place holds {@code {"error": {status, code, message}}}. */
        COLLECT_ALL
    }

    /** All steps at once on the same input, {@link OnFailure#FAIL_FAST}; the output is their outputs in order. */
    static Step parallel(Step... steps) {
        return parallel(OnFailure.FAIL_FAST, Arrays.asList(steps));
    }

    /** All steps at once on the same input; the output is an array of their outputs, in the order given. */
    static Step parallel(OnFailure onFailure, List<Step> steps) {
        Objects.requireNonNull(onFailure, "onFailure");
        var branches = List.copyOf(steps);
        if (branches.isEmpty()) {
            throw new IllegalArgumentException("A parallel step needs at least one branch");
        }
        return (client, input) -> {
            var futures = new ArrayList<CompletableFuture<Result>>();
            for (Step branch : branches) {
                var future = start(branch, client, input);
                futures.add(onFailure == OnFailure.FAIL_FAST ? future : future.handle((done, failure) ->
                        failure == null ? done : failed(client, atrium(cause(failure)))));
            }
            var all = CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
            var answer = new CompletableFuture<Result>();
            if (onFailure == OnFailure.FAIL_FAST) {
                futures.forEach(f -> f.whenComplete((done, failure) -> {
                    if (failure != null) {
                        answer.completeExceptionally(cause(failure));
                    }
                }));
            }
            all.whenComplete((nothing, failure) -> {
                if (failure != null) {
                    answer.completeExceptionally(cause(failure));
                    return;
                }
                ArrayNode outputs = client.json().createArrayNode();
                Result merged = new Result(outputs, List.of(), List.of());
                for (var future : futures) {
                    Result done = future.join();
                    outputs.add(done.output());
                    merged = merged.then(done.withOutput(outputs));
                }
                answer.complete(merged);
            });
            return answer;
        };
    }

    /** A condition on the input (a previous step's output, in a pipeline) chooses the step. */
    static Step branch(Predicate<JsonNode> condition, Step whenTrue, Step otherwise) {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(whenTrue, "whenTrue");
        Objects.requireNonNull(otherwise, "otherwise");
        return choose(input -> condition.test(input) ? whenTrue : otherwise);
    }

    /** The step {@code chooser} picks for the input. */
    static Step choose(Function<JsonNode, Step> chooser) {
        Objects.requireNonNull(chooser, "chooser");
        return (client, input) -> {
            Step chosen = chooser.apply(input);
            if (chosen == null) {
                return CompletableFuture.failedFuture(new IllegalStateException("The chooser picked no step"));
            }
            return start(chosen, client, input);
        };
    }

    /**
     * The primary step, and when it fails with an {@link AtriumException} (refused, run failed, timed out) each
     * fallback in turn on the same input; fails with the last one's error. What was recovered from is in
     * {@link Result#recovered()}.
     */
    static Step fallback(Step primary, Step... fallbacks) {
        var chain = new ArrayList<Step>();
        chain.add(Objects.requireNonNull(primary, "primary"));
        chain.addAll(Arrays.asList(fallbacks));
        return (client, input) -> attempt(chain, 0, client, input, List.of());
    }

    private static CompletableFuture<Result> attempt(List<Step> chain, int index, AtriumClient client,
                                                     JsonNode input, List<AtriumException> failed) {
        return start(chain.get(index), client, input).handle((done, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(done.recovering(failed));
            }
            Throwable cause = cause(failure);
            if (!(cause instanceof AtriumException error) || index + 1 == chain.size()) {
                return CompletableFuture.<Result>failedFuture(cause);
            }
            var more = new ArrayList<>(failed);
            more.add(error);
            return attempt(chain, index + 1, client, input, more);
        }).thenCompose(next -> next);
    }

    /** Starts a step, turning a step that throws instead of failing its future into a failed future. */
    private static CompletableFuture<Result> start(Step step, AtriumClient client, JsonNode input) {
        try {
            var future = step.apply(client, input);
            return future != null ? future
                    : CompletableFuture.failedFuture(new IllegalStateException("A step answered no future"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static AtriumException atrium(Throwable cause) {
        if (cause instanceof AtriumException error) {
            return error;
        }
        throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    }

    private static Result failed(AtriumClient client, AtriumException error) {
        var output = client.json().createObjectNode();
        output.putObject("error").put("status", error.status()).put("code", error.code())
                .put("message", error.getMessage());
        return new Result(output, error instanceof AtriumException.RunFailed run ? List.of(run.invocation())
                : List.of(), List.of(error));
    }
}
