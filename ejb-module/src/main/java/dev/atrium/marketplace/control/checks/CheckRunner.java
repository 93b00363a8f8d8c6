package dev.atrium.marketplace.control.checks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

import jakarta.json.JsonObject;

import dev.atrium.marketplace.control.runtime.AgentLimits;
import dev.atrium.marketplace.control.runtime.AgentRunner;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.ImageConfig;
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
    /** For an image: its root, command (the card's entrypoint, else its Entrypoint/Cmd) and Env; else null. */
    private final ImageConfig image;

    CheckRunner(Executor executor, Path bundleDir, CheckedCard card, Duration budget, LongSupplier nanoTime) {
        this(executor, bundleDir, card, budget, nanoTime, null);
    }

    /** With {@code image}, {@code bundleDir} is the image's unpacked root file system. */
    CheckRunner(Executor executor, Path bundleDir, CheckedCard card, Duration budget, LongSupplier nanoTime,
                ImageConfig image) {
        this.executor = executor;
        this.bundleDir = bundleDir;
        this.card = card;
        this.nanoTime = nanoTime;
        this.deadline = nanoTime.getAsLong() + budget.toNanos();
        this.image = image;
    }

    /** The command the checks run: the card's entrypoint, or for an image without one its Entrypoint and Cmd. */
    List<String> command() {
        return image != null && card.entrypoint().isEmpty() ? image.command() : card.entrypoint();
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
        var env = new LinkedHashMap<String, String>();
        if (image != null) {
            env.putAll(AgentRunner.imageEnvironment(image.env()));
        }
        env.putAll(environment);
        var spec = new RunSpec(bundleDir, command(), input.toString().getBytes(StandardCharsets.UTF_8),
                env, bounded, network, card.permissions().filesystem(), true, true);
        if (image != null) {
            spec = spec.onRootFileSystem(image.workingDir());
        }
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
