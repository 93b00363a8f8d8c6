package dev.atrium.marketplace.control;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.marketplace.control.submission.BundleInspector;
import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.marketplace.control.trust.PromotionRule;
import dev.atrium.sandbox.ImageArchive;

/**
 * The marketplace context's configuration: every key under {@code atrium.marketplace} and {@code atrium.sandbox}
 * (the sandbox slots), with its default, and the limits derived from them. The platform's keys the marketplace also
 * reads ({@code atrium.data-dir}, {@code atrium.http.port}) are in {@code PlatformConfig}.
 */
@ConfigProperties(prefix = "atrium")
public class MarketplaceConfig {

    @ConfigProperty(name = "marketplace.bundle.max-bytes", defaultValue = "20971520")
    public long bundleMaxBytes;

    @ConfigProperty(name = "marketplace.bundle.max-unpacked-bytes", defaultValue = "209715200")
    public long bundleMaxUnpackedBytes;

    @ConfigProperty(name = "marketplace.bundle.max-entries", defaultValue = "10000")
    public int bundleMaxEntries;

    /** An image archive (docker save, OCI archive) is larger than a bundle: its own caps. */
    @ConfigProperty(name = "marketplace.image.max-bytes", defaultValue = "209715200")
    public long imageMaxBytes;

    @ConfigProperty(name = "marketplace.image.max-unpacked-bytes", defaultValue = "536870912")
    public long imageMaxUnpackedBytes;

    @ConfigProperty(name = "marketplace.image.max-entries", defaultValue = "50000")
    public int imageMaxEntries;

    /** The review time announced at submission. */
    @ConfigProperty(name = "marketplace.review-hours", defaultValue = "24")
    public int reviewHours;

    /** The OSV advisory file of the dependency check; blank for the one bundled with the application. */
    @ConfigProperty(name = "marketplace.advisories")
    public Optional<String> advisories;

    /** How long the pre-listing checks of one submission may run the agent in all. */
    @ConfigProperty(name = "marketplace.checks.budget-seconds", defaultValue = "120")
    public int checksBudgetSeconds;

    /** A rollout's observation period: one step (10 %, 50 %, all) per period while quality holds. */
    @ConfigProperty(name = "marketplace.rollout.step-hours", defaultValue = "24")
    public int rolloutStepHours;

    /** The calls each version needs in a step before their figures are compared. */
    @ConfigProperty(name = "marketplace.rollout.min-calls", defaultValue = "50")
    public long rolloutMinCalls;

    /** How far the candidate's success rate may fall below the current version's before it is rolled back. */
    @ConfigProperty(name = "marketplace.rollout.success-margin", defaultValue = "0.05")
    public double rolloutSuccessMargin;

    /** How far the candidate's quality score may fall below the current version's before it is rolled back. */
    @ConfigProperty(name = "marketplace.rollout.quality-margin", defaultValue = "0.25")
    public double rolloutQualityMargin;

    /** The sandbox slots of an instance; 0 for twice its cores. */
    @ConfigProperty(name = "sandbox.slots", defaultValue = "0")
    public int sandboxSlots;

    /** How long a call within the caps waits for a free slot before it is answered 503. */
    @ConfigProperty(name = "sandbox.wait-seconds", defaultValue = "5")
    public int sandboxWaitSeconds;

    /** Slots kept for the pre-listing checks. */
    @ConfigProperty(name = "sandbox.check-slots", defaultValue = "1")
    public int sandboxCheckSlots;

    /** The most slots one user's invocations hold; 0 for half the slots. */
    @ConfigProperty(name = "sandbox.per-caller-slots", defaultValue = "0")
    public int sandboxPerCallerSlots;

    /** The most slots one agent's invocations hold; 0 for half the slots. */
    @ConfigProperty(name = "sandbox.per-agent-slots", defaultValue = "0")
    public int sandboxPerAgentSlots;

    /** Whether sandboxes are made ahead of the calls of agents that are called (docs/decisions/marketplace.md). */
    @ConfigProperty(name = "sandbox.warm.enabled", defaultValue = "true")
    public boolean sandboxWarmEnabled;

    /** The most sandboxes made ahead for one agent version. */
    @ConfigProperty(name = "sandbox.warm.per-version", defaultValue = "8")
    public int sandboxWarmPerVersion;

    /** The most sandboxes made ahead on this instance, all versions together. */
    @ConfigProperty(name = "sandbox.warm.max", defaultValue = "16")
    public int sandboxWarmMax;

    /** The memory limits of the sandboxes made ahead, added up, stay within this many MB. */
    @ConfigProperty(name = "sandbox.warm.memory-mb", defaultValue = "4096")
    public int sandboxWarmMemoryMb;

    /** A version not called for this long has its sandboxes removed. */
    @ConfigProperty(name = "sandbox.warm.idle-seconds", defaultValue = "60")
    public int sandboxWarmIdleSeconds;

    /**
     * The CPU a sandbox made ahead may use before its input (its agent's start); past it the sandbox is closed and the
     * version's calls run cold until its pool goes idle.
     */
    @ConfigProperty(name = "sandbox.warm.start-cpu-ms", defaultValue = "1000")
    public int sandboxWarmStartCpuMs;

    /** Calls one run of an agent may make to its dependencies. */
    @ConfigProperty(name = "marketplace.dependencies.calls-per-run", defaultValue = "10")
    public int dependenciesCallsPerRun;

    /** Subscribers may call one agent at most this many times a second: 429 past it. */
    @ConfigProperty(name = "marketplace.subscription.calls-per-second", defaultValue = "5")
    public int subscriptionCallsPerSecond;

    /** Invocations per 60 s window per user, whichever credential makes them. */
    @ConfigProperty(name = "marketplace.invoke.per-minute", defaultValue = "100")
    public int invokePerMinute;

    /** A usage record's compute cost is its execution seconds times this (USD). */
    @ConfigProperty(name = "marketplace.compute-usd-per-second", defaultValue = "0.00002")
    public BigDecimal computeUsdPerSecond;

    /** How often an instance compares its search index with the database. */
    @ConfigProperty(name = "marketplace.search.reconcile-minutes", defaultValue = "5")
    public int searchReconcileMinutes;

    /** Security reports one user may send an hour (429 beyond). */
    @ConfigProperty(name = "marketplace.reports.per-hour", defaultValue = "5")
    public int reportsPerHour;

    /** The quality score's window. */
    @ConfigProperty(name = "marketplace.quality.window-days", defaultValue = "30")
    public int qualityWindowDays;

    /** The promotion to community ({@link PromotionRule}): successful calls by verified strangers. */
    @ConfigProperty(name = "marketplace.trust.min-calls", defaultValue = "100")
    public long trustMinCalls;

    @ConfigProperty(name = "marketplace.trust.min-distinct-callers", defaultValue = "10")
    public long trustMinDistinctCallers;

    @ConfigProperty(name = "marketplace.trust.min-reviews", defaultValue = "3")
    public long trustMinReviews;

    /** The free tier's invocations per user and month. */
    @ConfigProperty(name = "marketplace.free-calls-per-month", defaultValue = "100")
    public long freeCallsPerMonth;

    /** The free tier's model tokens per user and month. */
    @ConfigProperty(name = "marketplace.free-tokens-per-month", defaultValue = "50000")
    public long freeTokensPerMonth;

    /** The most an upload may carry before its content says whether it is a bundle or an image archive. */
    public long uploadMaxBytes() {
        return Math.max(bundleMaxBytes, imageMaxBytes);
    }

    /** What a whole submission request may carry: the bundle plus the card and the multipart framing. */
    public long requestMaxBytes() {
        return uploadMaxBytes() + CardValidator.CARD_MAX_BYTES + 64 * 1024;
    }

    /** The caps of unpacking an image archive into a root file system. */
    public ImageArchive.Caps imageCaps() {
        return ImageArchive.Caps.of(imageMaxEntries, imageMaxUnpackedBytes);
    }

    public BundleInspector inspector() {
        return new BundleInspector(bundleMaxEntries, bundleMaxUnpackedBytes);
    }

    public Duration reviewWithin() {
        return Duration.ofHours(reviewHours);
    }

    public String advisoriesPath() {
        return advisories.map(String::strip).orElse("");
    }

    public Duration checksBudget() {
        return Duration.ofSeconds(Math.max(10, checksBudgetSeconds));
    }
}
