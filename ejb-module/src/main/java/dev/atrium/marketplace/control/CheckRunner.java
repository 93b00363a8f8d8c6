package dev.atrium.marketplace.control;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

import jakarta.json.JsonObject;

import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Limits;
import dev.atrium.sandbox.Network;
import dev.atrium.sandbox.RunResult;
import dev.atrium.sandbox.RunSpec;

/**
 * Runs the agent of a submission in the sandbox for the checks: as an {@code unverified} agent (the level every
 * agent starts at: its limits and network), with network calls audited, and within the checks' time budget (a run
 * that would start after the budget is spent is not started; a run never gets more time than is left). Remembers
 * every run, for the network and resource checks.
 */
final class CheckRunner {

    /** One run: what it was for ({@code test_cases/0}, {@code injection/3}), its limits and result. */
    record AgentRun(String label, boolean smoke, Limits limits, RunResult result) {
    }

    private final Executor executor;
    private final Path bundleDir;
    private final CheckedCard card;
    private final LongSupplier nanoTime;
    private final long deadline;
    private final List<AgentRun> runs = new ArrayList<>();

    CheckRunner(Executor executor, Path bundleDir, CheckedCard card, Duration budget, LongSupplier nanoTime) {
        this.executor = executor;
        this.bundleDir = bundleDir;
        this.card = card;
        this.nanoTime = nanoTime;
        this.deadline = nanoTime.getAsLong() + budget.toNanos();
    }

    /** The limits of an unverified agent with this card's declaration. */
    Limits limits() {
        return AgentLimits.of(card.permissions(), TrustLevel.UNVERIFIED);
    }

    /** Runs once with this input and environment; empty when the budget is spent. */
    Optional<RunResult> run(String label, boolean smoke, JsonObject input, Map<String, String> environment,
                            Limits limits) {
        long left = deadline - nanoTime.getAsLong();
        if (left < Duration.ofSeconds(1).toNanos()) {
            return Optional.empty();
        }
        Limits bounded = limits.timeout().toNanos() > left ? limits.withTimeout(Duration.ofNanos(left)) : limits;
        Network network = AgentLimits.network(card.permissions(), TrustLevel.UNVERIFIED)
                ? Network.to(card.permissions().allowedDomains()) : Network.NONE;
        var spec = new RunSpec(bundleDir, card.entrypoint(), input.toString().getBytes(StandardCharsets.UTF_8),
                environment, bounded, network, card.permissions().filesystem(), true, true);
        RunResult result = executor.run(spec);
        runs.add(new AgentRun(label, smoke, bounded, result));
        return Optional.of(result);
    }

    List<AgentRun> runs() {
        return List.copyOf(runs);
    }

    CheckedCard card() {
        return card;
    }
}
