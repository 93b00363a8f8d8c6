package dev.atrium.marketplace.control.checks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.runtime.SandboxSlots;
import dev.atrium.marketplace.control.submission.BundleInspector;
import dev.atrium.marketplace.control.submission.CardValidation;
import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.marketplace.entity.checks.CheckResult;
import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.sandbox.BundlePaths;
import dev.atrium.sandbox.BundleRefused;
import dev.atrium.sandbox.BundleUnpacker;
import dev.atrium.sandbox.FileTrees;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.ImageArchive;
import dev.atrium.sandbox.RunResult;
import dev.atrium.sandbox.RunSpec;
import dev.atrium.sandbox.SandboxCapabilities;
import dev.atrium.sandbox.SandboxRefused;

/**
 * The pre-listing checks of an agent (docs/decisions/marketplace.md, "Pre-listing checks"), run at submission and by an
 * administrator's re-scan: (1) smoke tests, (2) static scan, (3) dependencies, (4) prompt injection, (5) network audit,
 * (6) time and memory. The bundle is unpacked into a temporary directory that is removed afterwards on every path; the
 * agent runs in the sandbox as an unverified agent within the checks' time budget, each run holding one of the
 * instance's sandbox slots: the one kept for checks or any free one (503 when none frees in time). An agent shipped as
 * an image only is not run (no container runtime here): its checks are {@code not_run} with that reason.
 */
@ApplicationScoped
public class SafetyChecks {

    private static final Logger LOG = Logger.getLogger(SafetyChecks.class.getName());

    static final String IMAGE_ONLY = "The agent ships as an image only (runtime.docker_image) and this platform has "
            + "no container runtime to run it; the test cases were validated against input_schema only";

    @Inject
    Executor executor;

    @Inject
    SandboxSlots slots;

    @Inject
    CardValidation cards;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    private volatile Loaded advisories;

    private record Loaded(String path, long modified, Advisories advisories) {
    }

    /** Which checks run: all of them, or only those that read what the agent ships without running it. */
    public enum Scope {
        /** Every check: at submission and in an administrator's re-scan. */
        ALL,
        /**
         * The static scan and the dependencies (and what else reads the bundle or image without running the agent):
         * the scheduled re-scan, whose findings change with the advisory data and the scanners, not with a run.
         */
        WITHOUT_RUNS
    }

    static final String NOT_RUN_SCHEDULED = "A scheduled re-scan does not run the agent";

    /**
     * Runs every check on the card (valid) and its bundle ({@code archive}, already inspected; null for an image-only
     * agent; {@code format} {@code tar.gz} or {@code zip}). 503 when the sandbox refuses to run agents here.
     */
    public SafetyReport check(String cardJson, Path archive, String format) {
        return check(cardJson, archive, format, Scope.ALL);
    }

    /** The checks of {@code scope} on the card and its bundle, as {@link #check(String, Path, String)}. */
    public SafetyReport check(String cardJson, Path archive, String format, Scope scope) {
        CheckedCard card = CheckedCard.of(cardJson);
        if (archive == null) {
            return new SafetyReport(List.of(
                    CheckResult.notRun(SmokeTestCheck.NAME, IMAGE_ONLY),
                    CheckResult.notRun(StaticScan.NAME, "No bundle to scan: the agent ships as an image"),
                    CheckResult.notRun(DependencyCheck.NAME, "No bundle to check: the agent ships as an image"),
                    CheckResult.notRun(PromptInjectionCheck.NAME, IMAGE_ONLY),
                    CheckResult.notRun(NetworkAuditCheck.NAME, IMAGE_ONLY),
                    CheckResult.notRun(ResourceUseCheck.NAME, IMAGE_ONLY)));
        }
        Path dir = null;
        try {
            // the agent runs as nobody: the directories above its bundle must be searchable by others
            dir = Files.createTempDirectory("atrium-checks-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx--x--x")));
            if (BundleInspector.IMAGE.equals(format)) {
                Path root = dir.resolve("root");
                ImageArchive.Unpacked image;
                try {
                    image = ImageArchive.unpack(archive, root, config.imageCaps());
                } catch (BundleRefused refused) {
                    return notUnpacked(ImageScan.NAME, "The image", refused);
                }
                return runImage(card, root, image, scope);
            }
            Path bundle = dir.resolve("bundle");
            try {
                BundleUnpacker.unpack(archive, bundle, config.bundleMaxEntries, config.bundleMaxUnpackedBytes);
            } catch (BundleRefused refused) {
                return notUnpacked(StaticScan.NAME, "The bundle", refused);
            }
            return run(card, bundle, archive, format, scope);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    private static SafetyReport notUnpacked(String check, String what, BundleRefused refused) {
        return new SafetyReport(List.of(CheckResult.ran(check, what + " could not be unpacked",
                List.of(CheckFinding.high(refused.entry(), what + " could not be unpacked: " + refused.reason())), 0)));
    }

    private SafetyReport run(CheckedCard card, Path bundle, Path archive, String format, Scope scope) {
        var results = new ArrayList<CheckResult>();
        long start = System.nanoTime();
        List<CheckFinding> scanned = new StaticScan(card.permissions()).scan(bundle, archive, format);
        results.add(CheckResult.ran(StaticScan.NAME, count(scanned, "finding"), scanned, since(start)));

        start = System.nanoTime();
        DependencyCheck.Outcome deps = new DependencyCheck(advisories()).check(bundle);
        results.add(CheckResult.ran(DependencyCheck.NAME, deps.dependencies() + " dependencies in " + deps.manifests()
                + " manifests compared with " + advisories().size() + " advisories", deps.findings(), since(start)));

        return runAgent(results, new CheckRunner(pooled(), bundle, card, config.checksBudget(), System::nanoTime),
                scope);
    }

    /**
     * An image: the static scan over its application directory (the WorkingDir, else the directory of the command's
     * program outside the system's directories), the dependency check over its installed packages and that
     * directory's manifests, the image scan over the whole root, then the runs as for a bundle.
     */
    private SafetyReport runImage(CheckedCard card, Path root, ImageArchive.Unpacked image, Scope scope) {
        var results = new ArrayList<CheckResult>();
        var runner = new CheckRunner(pooled(), root, card, config.checksBudget(), System::nanoTime, image.config());
        Path app = applicationDir(root, image.config().workingDir(), runner.command());
        long start = System.nanoTime();
        if (app == null) {
            results.add(CheckResult.notRun(StaticScan.NAME, "No application directory: the image's WorkingDir is / "
                    + "and its command is a system program"));
        } else {
            List<CheckFinding> scanned = new StaticScan(card.permissions(), true).scan(app, null, null);
            results.add(CheckResult.ran(StaticScan.NAME, count(scanned, "finding") + " in /" + root.relativize(app),
                    scanned, since(start)));
        }
        start = System.nanoTime();
        int[] withAdvisories = {0};
        DependencyCheck.Outcome deps = new DependencyCheck(advisories()).checkImage(root, app, withAdvisories);
        results.add(CheckResult.ran(DependencyCheck.NAME, deps.dependencies() + " installed packages and "
                + "dependencies compared with " + advisories().size() + " advisories", deps.findings(), since(start)));
        start = System.nanoTime();
        ImageScan.Outcome scan = ImageScan.scan(root, image, withAdvisories[0]);
        results.add(CheckResult.ran(ImageScan.NAME, image.layers() + " layers, " + image.entries() + " entries, "
                + scan.filesRead() + " files scanned: " + count(scan.findings(), "finding"), scan.findings(),
                since(start)));
        if (runner.command().isEmpty()) {
            results.add(CheckResult.ran(SmokeTestCheck.NAME, "Nothing to run", List.of(CheckFinding.high(
                    "/runtime/entrypoint", "The image names no Entrypoint or Cmd, and the card no runtime.entrypoint")),
                    0));
            return new SafetyReport(results);
        }
        return runAgent(results, runner, scope);
    }

    /** The application's directory in an image's root, through no link; null when there is none to tell. */
    static Path applicationDir(Path root, String workingDir, List<String> command) {
        List<String> candidates = new ArrayList<>();
        candidates.add(workingDir);
        if (!command.isEmpty() && command.get(0).startsWith("/")) {
            String program = command.get(0);
            candidates.add(program.substring(0, Math.max(1, program.lastIndexOf('/'))));
        }
        for (String candidate : candidates) {
            String relative = BundlePaths.normalize(candidate);
            if (relative.isEmpty() || BundlePaths.unsafeName(relative) != null
                    || Set.of("bin", "sbin", "usr", "usr/bin", "usr/sbin", "usr/local/bin", "lib", "etc")
                    .contains(relative)) {
                continue;
            }
            Path at = root;
            boolean real = true;
            for (String segment : relative.split("/")) {
                at = at.resolve(segment);
                if (Files.isSymbolicLink(at) || !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                    real = false;
                    break;
                }
            }
            if (real) {
                return at;
            }
        }
        return null;
    }

    /**
     * The checks that run the agent: smoke tests, prompt injection, then the audit of those runs; none of them in a
     * scheduled re-scan ({@link Scope#WITHOUT_RUNS}).
     */
    private SafetyReport runAgent(List<CheckResult> results, CheckRunner runner, Scope scope) {
        if (scope == Scope.WITHOUT_RUNS) {
            for (String name : List.of(SmokeTestCheck.NAME, PromptInjectionCheck.NAME, NetworkAuditCheck.NAME,
                    ResourceUseCheck.NAME)) {
                results.add(CheckResult.notRun(name, NOT_RUN_SCHEDULED));
            }
            return sorted(results);
        }
        CheckedCard card = runner.card();
        long start;
        try {
            start = System.nanoTime();
            if (card.testCases().isEmpty()) {
                results.add(CheckResult.notRun(SmokeTestCheck.NAME, "The card has no test_cases"));
            } else {
                SmokeTestCheck.Outcome smoke = new SmokeTestCheck(cards.validator()).check(runner);
                results.add(CheckResult.ran(SmokeTestCheck.NAME, smoke.passed() + " of " + smoke.run()
                        + " test cases passed in the sandbox", smoke.findings(), since(start)));
            }
            start = System.nanoTime();
            String notApplicable = PromptInjectionCheck.notApplicable(card);
            if (notApplicable != null) {
                results.add(CheckResult.notRun(PromptInjectionCheck.NAME, notApplicable));
            } else {
                PromptInjectionCheck.Outcome injection = new PromptInjectionCheck().check(runner,
                        PromptInjectionCheck.canary());
                results.add(CheckResult.ran(PromptInjectionCheck.NAME, injection.run() + " of "
                        + PromptInjectionCheck.INPUTS.size() + " adversarial inputs run with a canary secret in the "
                        + "environment", injection.findings(), since(start)));
            }
        } catch (SandboxRefused refused) {
            LOG.warning(() -> "The sandbox refused the checks' runs: " + refused.getMessage());
            throw new BusinessException(Problem.UNAVAILABLE, "The sandbox cannot run agents on this instance, so the "
                    + "submission cannot be checked; try again later", refused.getMessage());
        }
        start = System.nanoTime();
        var runs = runner.runs();
        if (runs.isEmpty()) {
            results.add(CheckResult.notRun(NetworkAuditCheck.NAME, "The agent was not run"));
            results.add(CheckResult.notRun(ResourceUseCheck.NAME, "The agent was not run"));
        } else {
            List<CheckFinding> network = NetworkAuditCheck.check(runs, card.permissions());
            results.add(CheckResult.ran(NetworkAuditCheck.NAME, "Network system calls of " + runs.size()
                    + " runs audited", network, since(start)));
            ResourceUseCheck.Measured resources = ResourceUseCheck.check(runs);
            results.add(CheckResult.ran(ResourceUseCheck.NAME, resources.summary(), resources.findings(), 0));
        }
        return sorted(results);
    }

    /** The smoke tests first, as the submission answer has always shown them. */
    private static SafetyReport sorted(List<CheckResult> results) {
        results.sort(Comparator.comparingInt(r -> List.of(SmokeTestCheck.NAME, StaticScan.NAME, DependencyCheck.NAME,
                ImageScan.NAME, PromptInjectionCheck.NAME, NetworkAuditCheck.NAME, ResourceUseCheck.NAME)
                .indexOf(r.name())));
        return new SafetyReport(results);
    }

    /** The executor through the instance's slot pool, one slot per run, so that checks and invocations share it. */
    private Executor pooled() {
        return new Executor() {
            @Override
            public SandboxCapabilities capabilities() {
                return executor.capabilities();
            }

            @Override
            public RunResult run(RunSpec spec) {
                return slots.run(SandboxSlots.Claim.CHECK, () -> executor.run(spec));
            }
        };
    }

    private static String count(List<CheckFinding> findings, String noun) {
        return findings.size() + " " + noun + (findings.size() == 1 ? "" : "s");
    }

    private static long since(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** The fingerprint of the advisory data the dependency check uses now (see {@link Advisories#fingerprint()}). */
    public String advisoriesFingerprint() {
        return advisories().fingerprint();
    }

    /** The advisory file, read again when it changed on disk. */
    Advisories advisories() {
        String path = config.advisoriesPath();
        long modified = 0;
        if (!path.isEmpty()) {
            try {
                modified = Files.getLastModifiedTime(Path.of(path)).toMillis();
            } catch (IOException e) {
                throw new UncheckedIOException("The advisory file " + path + " cannot be read", e);
            }
        }
        Loaded loaded = advisories;
        if (loaded == null || !loaded.path().equals(path) || loaded.modified() != modified) {
            loaded = new Loaded(path, modified, Advisories.load(path));
            advisories = loaded;
        }
        return loaded.advisories();
    }

    /** Removes the directory without following links out of it. */
    static void delete(Path dir) {
        if (!FileTrees.delete(dir)) {
            LOG.warning(() -> "The checks' directory " + dir + " could not be removed");
        }
    }
}
