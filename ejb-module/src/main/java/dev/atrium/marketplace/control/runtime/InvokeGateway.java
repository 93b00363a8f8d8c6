package dev.atrium.marketplace.control.runtime;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import dev.atrium.ai.control.TenantService;
import dev.atrium.identity.control.login.AlertService;
import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.CallFunds;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.pii.PersonalData;
import dev.atrium.marketplace.control.rollout.VersionRouting;
import dev.atrium.marketplace.control.submission.CardValidation;
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.VersionRange;
import dev.atrium.marketplace.entity.runtime.AgentRun;
import dev.atrium.marketplace.entity.runtime.AgentUsage;
import dev.atrium.marketplace.entity.runtime.RunStatus;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.RateLimiter;
import dev.atrium.platform.telemetry.Tracing;
import dev.atrium.sandbox.Outcome;

/**
 * {@code POST /v1/agents/{agent_id}/invoke} (spec 03; docs/decisions/marketplace.md, "The invoke gateway"), in this
 * order: the rate limit of the calling user, whatever key or token they call with; the agent, which must be active; the
 * free tier; the input against the card's {@code input_schema}; admission, which decides and reserves the call's price
 * (the free call or the month's fee, the dependency budget, the hold; {@link Admission} gives all of it back on any
 * later refusal); the run in the sandbox with personal data in the input masked; the output scanned for personal data
 * (flagged and alerted, never blocked); then the run and usage records in one short transaction. Not transactional
 * itself: a sandbox run never holds a database transaction open.
 *
 * <p>An agent's run calls its declared dependencies here too ({@link #invokeAsDependency}), with the dependency token
 * its run was given: the call is the user's own invocation (same rate limit, free tier, price and usage record) of an
 * agent the caller's card declares, within its version range, never of an agent already in the chain, and at most
 * {@value #MAX_CHAIN} agents deep.
 */
@ApplicationScoped
public class InvokeGateway {

    private static final Logger LOG = Logger.getLogger(InvokeGateway.class.getName());
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    static final Duration WINDOW = Duration.ofSeconds(60);
    /** The alert kind raised when an agent's output carries personal data. */
    public static final String PII_ALERT = "agent_output_personal_data";
    /** The incident code of a run the sandbox stopped for hostile behaviour (the process limit). */
    static final String HOSTILE = "contained_hostile_behaviour";

    /**
     * Who invokes: the user. The invoke limit counts per user whatever the credential (every API key the user had,
     * a token, a session, a dependency token), as keys cost nothing to replace.
     */
    public record Invoker(long userId) {
    }

    /**
     * An invocation's answer: {@code inputError} set when the input was refused (nothing ran), else the run's
     * facts and the body (the agent's output, or {@code {"error": ...}} when the run failed).
     */
    public record Invocation(String inputError, UUID runId, String agentVersion, RunStatus status, long durationMs,
                             long tokensInput, long tokensOutput, BigDecimal price, JsonObject body,
                             RateLimiter.Decision rate) {

        static Invocation refused(String error, RateLimiter.Decision rate) {
            return new Invocation(error, null, null, null, 0, 0, 0, null, null, rate);
        }
    }

    /**
     * Where a call stands: {@code chain} the agents whose runs led to it (empty for a caller's own call),
     * {@code parentRunId} the run that called it and {@code root} the invocation whose budget it draws on (both null
     * for a caller's own call), {@code maxPrice} the caller's {@code Atrium-Max-Price-Usd} (null: the agent's own
     * maximum price).
     */
    record Calling(List<UUID> chain, UUID parentRunId, UUID root, BigDecimal maxPrice) {

        static Calling own(BigDecimal maxPrice) {
            return new Calling(List.of(), null, null, maxPrice);
        }

        /** The invocation a run started under this call belongs to: its root, or the run itself for an own call. */
        UUID rootFor(UUID runId) {
            return root == null ? runId : root;
        }
    }

    /** The most agents one chain of calls may hold: the user's agent and two levels of dependencies. */
    public static final int MAX_CHAIN = 3;

    @Inject
    RateLimiter limiter;

    @Inject
    DependencyTokens dependencyTokens;

    /** Billing's balances (billing implements it). */
    @Inject
    CallFunds balances;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @EJB
    AgentRepository agents;

    @EJB
    TenantService tenants;

    @Inject
    FreeTier freeTier;

    @EJB
    Admissions admissions;

    @Inject
    CardValidation cards;

    @Inject
    AgentRunner runner;

    @Inject
    VersionRouting routing;

    @EJB
    UsageRecorder recorder;

    @EJB
    TrustService trust;

    @EJB
    AlertService alerts;

    @Inject
    MetricRegistry metrics;

    /** The span of a call through the gateway (docs/decisions/platform.md, "Traces"). */
    static final String SPAN = "invoke.gateway";

    @Inject
    Tracing tracing;

    @Inject
    InvokeStages stages;

    @Inject
    ServedVersions served;

    public Invocation invoke(Invoker caller, String agentRef, JsonValue input) {
        return invoke(caller, agentRef, null, null, input);
    }

    /**
     * {@code pinnedMajor}: the major version the caller pinned ({@code ?version=1}), or null to follow the agent's
     * rollout (see {@link VersionRouting}); {@code maxPrice}: the most the caller agrees to pay for the whole
     * invocation, dependency calls included ({@code Atrium-Max-Price-Usd}), or null for the agent's own maximum.
     */
    public Invocation invoke(Invoker caller, String agentRef, Integer pinnedMajor, BigDecimal maxPrice,
                             JsonValue input) {
        return tracing.inSpan(SPAN, () -> own(caller, agentRef, pinnedMajor, maxPrice, input));
    }

    private Invocation own(Invoker caller, String agentRef, Integer pinnedMajor, BigDecimal maxPrice,
                           JsonValue input) {
        var rate = rate(caller);
        Agent agent = active(agentRef);
        AgentVersion version = routing.versionFor(agent, caller.userId(), pinnedMajor, served::version);
        return invoke(caller, agent, version, input, rate, Calling.own(maxPrice));
    }

    /**
     * A call from an agent's run to one of its dependencies, authenticated by the run's dependency token: 401 for a
     * token that is not live; 409 ({@link Problem#DEPENDENCY_CHAIN}) for an agent already in the chain or a chain
     * already {@value #MAX_CHAIN} deep; 403 ({@link Problem#DEPENDENCY_NOT_DECLARED}) for an agent the caller's card
     * does not declare; 409 when the version that would serve is outside the declared range; 429
     * ({@link Problem#DEPENDENCY_CALLS_USED_UP}) past the calls one run may make.
     */
    public Invocation invokeAsDependency(String token, String agentRef, Integer pinnedMajor, JsonValue input) {
        return tracing.inSpan(SPAN, () -> dependency(token, agentRef, pinnedMajor, input));
    }

    private Invocation dependency(String token, String agentRef, Integer pinnedMajor, JsonValue input) {
        var grant = dependencyTokens.resolve(token)
                .orElseThrow(() -> BusinessException.unauthenticated("Invalid or expired credentials"));
        Agent agent = active(agentRef);
        if (grant.chain().contains(agent.id())) {
            throw new BusinessException(Problem.DEPENDENCY_CHAIN, "A cycle between agents",
                    "Agent " + agent.name() + " is already running in this chain of calls");
        }
        if (grant.chain().size() >= MAX_CHAIN) {
            throw new BusinessException(Problem.DEPENDENCY_CHAIN, "Too deep a chain of calls",
                    "A chain of calls between agents holds at most " + MAX_CHAIN + " agents");
        }
        String range = grant.dependencies().get(agent.name());
        if (range == null) {
            throw new BusinessException(Problem.DEPENDENCY_NOT_DECLARED, "Not a declared dependency",
                    "The calling agent's card does not declare " + agent.name() + " among its dependencies");
        }
        if (!dependencyTokens.countCall(token, config.dependenciesCallsPerRun, WINDOW)) {
            throw new BusinessException(Problem.DEPENDENCY_CALLS_USED_UP, "Too many calls from one run",
                    "One run may call its dependencies at most " + config.dependenciesCallsPerRun + " times");
        }
        var caller = new Invoker(grant.userId());
        var rate = rate(caller);
        AgentVersion version = routing.versionFor(agent, grant.userId(), pinnedMajor, served::version);
        var declared = VersionRange.parse(range);
        if (!declared.contains(SemanticVersion.parse(version.version()))) {
            throw BusinessException.conflict("Agent " + agent.name() + " would answer with version "
                    + version.version() + ", outside the declared range " + range);
        }
        return invoke(caller, agent, version, input, rate, new Calling(grant.chain(), grant.parentRunId(),
                grant.rootRunId(), null));
    }

    /**
     * The invoke limit's hit, with what the free tier needs read in the same round trip to the shared store: the
     * version of the caller's tier and this month's free calls and tokens.
     */
    private Rated rate(Invoker caller) {
        var keys = new ArrayList<String>(3);
        keys.add(TenantService.tierVersionKey(caller.userId()));
        keys.addAll(freeTier.keys(caller.userId()));
        var hit = limiter.hitAndRead("invoke|user:" + caller.userId(), config.invokePerMinute, WINDOW, keys);
        var rate = hit.decision();
        if (!rate.allowed()) {
            throw new BusinessException(Problem.RATE_LIMITED, "Too many invocations",
                    "At most " + rate.limit() + " invocations per " + WINDOW.toSeconds() + " s window per user, "
                            + "whichever key or token makes them; retry in " + rate.retryAfterSeconds() + " s",
                    rateHeaders(rate, true));
        }
        return new Rated(rate, hit.values().get(0), hit.values().subList(1, 3));
    }

    /** The invoke limit's decision, the caller's tier version and free-tier counters read with it. */
    private record Rated(RateLimiter.Decision decision, Optional<String> tierVersion,
                         List<Optional<String>> freeCounters) {
    }

    private Invocation invoke(Invoker caller, Agent agent, AgentVersion version, JsonValue input,
                              Rated rated, Calling calling) {
        var rate = rated.decision();
        boolean free = tenants.onFreeTier(caller.userId(), rated.tierVersion());
        if (free) {
            freeTier.check(caller.userId(), rated.freeCounters());
        }
        var serving = served.served(version.id()).orElseThrow(() -> BusinessException.notFound("Agent"));
        var problems = InputCheck.problems(input, serving.inputSchema(), cards.validator());
        if (problems.isPresent()) {
            return Invocation.refused(problems.get(), rate);
        }
        Pricing pricing = serving.pricing();
        if (pricing.model() == Pricing.Model.SUBSCRIPTION) {
            subscriptionCap(caller, agent);
        }
        try (var admission = new Admission(UUID.randomUUID())) {
            try (var timing = stages.start(InvokeStages.Stage.ADMISSION)) {
                admit(admission, caller.userId(), agent, serving, calling);
            }
            if (free) {
                freeTier.count(caller.userId());
                admission.onRefusal(() -> freeTier.uncount(caller.userId()));
            }
            var masked = PersonalData.mask(input);
            var run = runner.run(agent, version, masked.value().toString().getBytes(StandardCharsets.UTF_8),
                    new AgentRunner.Calling(caller.userId(), calling.chain(), admission.runId(),
                            calling.rootFor(admission.runId())));
            return finish(caller, agent, version, masked.value(), run, free, rate, admission, calling,
                    serving.dependencies().isEmpty());
        }
    }

    /**
     * Decides the call's price before it runs, reserving each part atomically (docs/decisions/billing.md, "Holds — no
     * overspending"): the freemium free call or the subscription month, the dependency budget
     * ({@code Atrium-Max-Price-Usd}), then the hold of the most it can cost on the caller's balance (402/30001 when it
     * does not fit).
     */
    private void admit(Admission admission, long userId, Agent agent, ServedVersions.Served serving,
                       Calling calling) {
        var admitted = admissions.admit(userId, agent.id(), agent.name(), serving.pricing(), admission.runId(),
                calling.root(), calling.maxPrice(), calling.root() == null && !serving.dependencies().isEmpty());
        int month = admitted.month();
        if (admitted.freeSlot()) {
            admission.unlessServed(() -> admissions.giveFreeSlotBack(userId, agent.id(), month));
        }
        if (admitted.paysFee()) {
            admission.unlessServed(() -> admissions.releaseFeeMonth(userId, agent.id(), month, admission.runId()));
        }
        var charge = admitted.charge();
        admission.decided(charge);
        BigDecimal max = charge.max();
        if (admitted.overBudget()) {
            throw new BusinessException(Problem.PAYMENT_REQUIRED, "Over the invocation's price cap",
                    "This call of " + agent.name() + " may cost up to " + max.toPlainString() + " USD, more "
                            + "than is left of the price the caller agreed to (Atrium-Max-Price-Usd)");
        }
        if (calling.root() != null) {
            admission.budgeted(admissions, calling.root(), max);
        }
        UUID hold = admitted.holdId();
        if (hold != null) {
            admission.held(hold, () -> balances.release(hold));
        }
    }

    /** Subscribers may call one agent at most {@code subscriptionCallsPerSecond} times a second: 429 past it. */
    private void subscriptionCap(Invoker caller, Agent agent) {
        var second = limiter.hit("subscription|" + caller.userId() + "|" + agent.id(),
                config.subscriptionCallsPerSecond, Duration.ofSeconds(1));
        if (!second.allowed()) {
            throw new BusinessException(Problem.RATE_LIMITED, "Too many calls of a subscription",
                    "A subscription allows at most " + config.subscriptionCallsPerSecond
                            + " calls per second of one agent",
                    rateHeaders(second, true));
        }
    }

    private Invocation finish(Invoker caller, Agent agent, AgentVersion served, JsonValue maskedInput,
                              AgentRunner.Run run, boolean free, RateLimiter.Decision rate, Admission admission,
                              Calling calling, boolean noDependencies) {
        var result = run.result();
        var reply = AgentProtocol.read(result, run.limits().timeout().toSeconds());
        RunStatus status = RunStatus.of(result.outcome(), reply.ok());
        JsonObject body = reply.output().orElseGet(() -> JSON.createObjectBuilder().add("error", reply.error())
                .build());
        List<String> pii = reply.ok() ? PersonalData.find(body) : List.of();
        UUID runId = admission.runId();
        String version = served.version();
        long durationMs = result.wallTime().toMillis();
        var log = PersonalData.maskText(result.stderrText());
        var runFacts = new AgentRun.Facts(runId, agent.id(), version, caller.userId(), status,
                reply.ok() ? null : reply.error(), result.exitCode(), durationMs, maskedInput.toString(),
                body.toString(), log.text(), pii);
        double seconds = result.wallTime().toNanos() / 1e9;
        var usage = reply.usage();
        var usageFacts = new AgentUsage.Facts(runId, caller.userId(), agent.id(), version, usage.tokensInput(),
                usage.tokensOutput(), seconds, BigDecimal.valueOf(usage.costLlm()),
                UsageRecorder.computeCost(seconds, config.computeUsdPerSecond), status.succeeded(), admission.holdId(),
                admission.charge(), calling.parentRunId(), calling.root());
        var record = stages.time(InvokeStages.Stage.RECORDING, () -> recorder.record(runFacts, usageFacts));
        admission.recorded(status.succeeded(), record.priceCharged());
        if (free) {
            freeTier.tokens(caller.userId(), usage.tokensInput() + usage.tokensOutput());
        }
        if (!pii.isEmpty()) {
            flagPersonalData(agent, runId, pii);
        }
        if (result.outcome() == Outcome.KILLED) {
            hostile(agent, runId, reply.error());
        }
        metrics.counter("atrium_agent_invocations_total", new Tag("status", status.value())).inc();
        // the answer's price is the whole invocation's: this call and every dependency call it made
        BigDecimal total = calling.root() == null && !noDependencies
                ? record.priceCharged().add(recorder.chargedUnder(runId)) : record.priceCharged();
        return new Invocation(null, runId, version, status, durationMs, record.tokensInput(), record.tokensOutput(),
                Pricing.money(total), body, rate);
    }

    private Agent active(String ref) {
        var agent = UUID_TEXT.matcher(ref).matches() ? agents.find(UUID.fromString(ref))
                : ref.length() <= 64 ? agents.findByName(ref) : Optional.<Agent>empty();
        return agent.filter(Agent::isActive).orElseThrow(() -> BusinessException.notFound("Agent"));
    }

    /** Personal data in an agent's output: logged, counted, alerted; the caller still gets the output. */
    private void flagPersonalData(Agent agent, UUID runId, List<String> kinds) {
        LOG.warning(() -> "Personal data (" + String.join(", ", kinds) + ") in the output of agent " + agent.id()
                + " run " + runId);
        for (String kind : kinds) {
            metrics.counter("atrium_agent_output_pii_total", new Tag("kind", kind)).inc();
        }
        try {
            alerts.raise(PII_ALERT, "agent:" + agent.id(), "Agent " + agent.name() + " answered personal data ("
                    + String.join(", ", kinds) + ") in run " + runId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not raise the personal data alert for run " + runId, e);
        }
    }

    /** A run the sandbox stopped for its process count: an incident that demotes the agent. */
    private void hostile(Agent agent, UUID runId, String error) {
        try {
            trust.incident(agent.id(), HOSTILE, "Run " + runId + " was stopped by the sandbox: " + error);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not record the incident of run " + runId, e);
        }
    }

    /** The rate-limit headers of the invoke bucket; with {@code Retry-After} when refused. */
    public static Map<String, String> rateHeaders(RateLimiter.Decision d, boolean refused) {
        var headers = new LinkedHashMap<String, String>();
        headers.put("X-RateLimit-Limit", Integer.toString(d.limit()));
        headers.put("X-RateLimit-Remaining", Long.toString(d.remaining()));
        headers.put("X-RateLimit-Reset", Long.toString(d.resetEpochSeconds()));
        if (refused) {
            headers.put("Retry-After", Long.toString(d.retryAfterSeconds()));
        }
        return headers;
    }
}
