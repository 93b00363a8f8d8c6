package dev.atrium.marketplace.control;

import java.time.Duration;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.sandbox.ImageArchive;

/** The marketplace's configuration ({@code atrium.marketplace.*}, also as {@code ATRIUM_MARKETPLACE_*}). */
@ApplicationScoped
public class MarketplaceSettings {

    /** The spec's free tier: at most 3 published agents. */
    public static final int FREE_TIER_AGENTS = 3;
    /** Smoke tests run at most this many of a card's test cases. */
    public static final int SMOKE_TEST_CASES = 3;
    public static final int CARD_MAX_BYTES = 256 * 1024;

    @Inject
    @ConfigProperty(name = "atrium.marketplace.bundle.max-bytes", defaultValue = "20971520")
    long bundleMaxBytes;

    @Inject
    @ConfigProperty(name = "atrium.marketplace.bundle.max-unpacked-bytes", defaultValue = "209715200")
    long bundleMaxUnpackedBytes;

    @Inject
    @ConfigProperty(name = "atrium.marketplace.bundle.max-entries", defaultValue = "10000")
    int bundleMaxEntries;

    /** An image archive (docker save, OCI archive) is larger than a bundle: its own caps. */
    @Inject
    @ConfigProperty(name = "atrium.marketplace.image.max-bytes", defaultValue = "209715200")
    long imageMaxBytes;

    @Inject
    @ConfigProperty(name = "atrium.marketplace.image.max-unpacked-bytes", defaultValue = "536870912")
    long imageMaxUnpackedBytes;

    @Inject
    @ConfigProperty(name = "atrium.marketplace.image.max-entries", defaultValue = "50000")
    int imageMaxEntries;

    @Inject
    @ConfigProperty(name = "atrium.marketplace.review-hours", defaultValue = "24")
    int reviewHours;

    /** The OSV advisory file of the dependency check; blank for the one bundled with the application. */
    @Inject
    @ConfigProperty(name = "atrium.marketplace.advisories")
    Optional<String> advisories;

    /** How long the pre-listing checks of one submission may run the agent in all. */
    @Inject
    @ConfigProperty(name = "atrium.marketplace.checks.budget-seconds", defaultValue = "120")
    int checksBudgetSeconds;

    public long bundleMaxBytes() {
        return bundleMaxBytes;
    }

    /** The most an upload may carry before its content says whether it is a bundle or an image archive. */
    public long uploadMaxBytes() {
        return Math.max(bundleMaxBytes, imageMaxBytes);
    }

    /** What a whole submission request may carry: the bundle plus the card and the multipart framing. */
    public long requestMaxBytes() {
        return uploadMaxBytes() + CARD_MAX_BYTES + 64 * 1024;
    }

    public long imageMaxBytes() {
        return imageMaxBytes;
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

    public int bundleMaxEntries() {
        return bundleMaxEntries;
    }

    public long bundleMaxUnpackedBytes() {
        return bundleMaxUnpackedBytes;
    }
}
