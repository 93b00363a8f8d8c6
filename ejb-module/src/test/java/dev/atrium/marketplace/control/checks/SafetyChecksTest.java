package dev.atrium.marketplace.control.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.runtime.SandboxSlots;
import dev.atrium.marketplace.control.submission.CardValidation;
import dev.atrium.marketplace.entity.checks.CheckResult;
import dev.atrium.marketplace.entity.checks.CheckStatus;
import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.sandbox.SandboxRefused;

/** The orchestration: which checks run when, unpacking and clean-up, the advisory file's reload. */
class SafetyChecksTest {

    private static final String CARD = "{\"name\": \"a\", \"runtime\": {\"entrypoint\": [\"python3\", \"main.py\"]},"
            + " \"input_schema\": {\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}}},"
            + " \"output_schema\": {\"type\": \"object\"},"
            + " \"test_cases\": [{\"input\": {\"text\": \"hi\"}, \"expected\": {\"result\": \"hi\"}}]}";
    private static final String ECHO = "import json, sys\n"
            + "print(json.dumps({'output': {'result': json.load(sys.stdin)['text']}}))\n";

    @TempDir
    Path dir;

    private final SafetyChecks checks = new SafetyChecks();

    @BeforeEach
    void wire() {
        checks.executor = new ProcessExecutor();
        checks.slots = new SandboxSlots(2, java.time.Duration.ofSeconds(5));
        checks.cards = new CardValidation();
        checks.cards.compile();
        checks.config = ConfigDefaults.of(MarketplaceConfig.class);
        checks.config.bundleMaxEntries = 100;
        checks.config.bundleMaxUnpackedBytes = 10_000_000;
        checks.config.checksBudgetSeconds = 60;
        checks.config.advisories = Optional.empty();
    }

    private Path tarGz(Map<String, String> files) throws IOException {
        Path file = Files.createTempFile(dir, "bundle", ".tar.gz");
        try (OutputStream out = Files.newOutputStream(file);
             var tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            for (var e : files.entrySet()) {
                byte[] bytes = e.getValue().getBytes(StandardCharsets.UTF_8);
                var entry = new TarArchiveEntry(e.getKey());
                entry.setSize(bytes.length);
                entry.setMode(0644);
                tar.putArchiveEntry(entry);
                tar.write(bytes);
                tar.closeArchiveEntry();
            }
        }
        return file;
    }

    private static List<String> statuses(SafetyReport report) {
        return report.checks().stream().map(c -> c.name() + "=" + c.status().value()).toList();
    }

    @Test
    void whenABundledAgentBehavesThenSixChecksPassInOrder() throws IOException {
        var report = checks.check(CARD, tarGz(Map.of("main.py", ECHO)), "tar.gz");
        assertThat(statuses(report)).containsExactly("smoke_tests=passed", "static_scan=passed", "dependencies=passed",
                "prompt_injection=passed", "network_audit=passed", "resources=passed");
        assertThat(report.rejects()).isFalse();
        assertThat(report.check("smoke_tests").orElseThrow().summary()).isEqualTo("1 of 1 test cases passed in the sandbox");
    }

    @Test
    void whenTheAgentShipsAsAnImageThenNothingRunsAndTheReasonSaysWhy() {
        var report = checks.check(CARD.replace("\"entrypoint\": [\"python3\", \"main.py\"]",
                "\"docker_image\": \"r/x:1\""), null, null);
        assertThat(report.checks()).hasSize(6).allMatch(c -> c.status() == CheckStatus.NOT_RUN);
        assertThat(report.check("smoke_tests").orElseThrow().summary()).contains("image", "no container runtime");
    }

    @Test
    void whenTheCardHasNoTestCasesThenTheSmokeTestsAreNotRunButTheRestIs() throws IOException {
        var report = checks.check(CARD.replaceAll(", \"test_cases\": \\[.*\\]", ""), tarGz(Map.of("main.py", ECHO)),
                "tar.gz");
        assertThat(statuses(report)).contains("smoke_tests=not_run", "prompt_injection=passed", "network_audit=passed");
        assertThat(report.check("resources").orElseThrow().summary()).isEqualTo("No smoke run to measure");
    }

    @Test
    void whenTheBundleCannotBeUnpackedThenAHighFindingAndNothingRuns() throws IOException {
        var report = checks.check(CARD, tarGz(Map.of("../escape.py", ECHO)), "tar.gz");
        assertThat(report.rejects()).isTrue();
        assertThat(report.checks()).singleElement().extracting(CheckResult::name).isEqualTo("static_scan");
    }

    @Test
    void whenTheSandboxRefusesThenTheSubmissionIsUnavailableNotAccepted() throws IOException {
        checks.executor = new dev.atrium.sandbox.Executor() {
            @Override
            public dev.atrium.sandbox.SandboxCapabilities capabilities() {
                return new ProcessExecutor().capabilities();
            }

            @Override
            public dev.atrium.sandbox.RunResult run(dev.atrium.sandbox.RunSpec spec) {
                throw new SandboxRefused("no cgroups here");
            }
        };
        assertThatThrownBy(() -> checks.check(CARD, tarGz(Map.of("main.py", ECHO)), "tar.gz"))
                .isInstanceOfSatisfying(BusinessException.class, e -> assertThat(e.problem().status()).isEqualTo(503));
    }

    @Test
    void whenTheChecksEndThenTheirTemporaryDirectoriesAreGone() throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        long before;
        try (var listing = Files.list(tmp)) {
            before = listing.filter(p -> p.getFileName().toString().startsWith("atrium-checks-")).count();
        }
        checks.check(CARD, tarGz(Map.of("main.py", ECHO, "d/e/f.txt", "x")), "tar.gz");
        try (var listing = Files.list(tmp)) {
            assertThat(listing.filter(p -> p.getFileName().toString().startsWith("atrium-checks-")).count())
                    .isLessThanOrEqualTo(before);
        }
    }

    @Test
    void whenTheConfiguredAdvisoryFileChangesThenItIsReadAgain() throws IOException {
        Path file = dir.resolve("advisories.osv.json");
        Files.writeString(file, "[]");
        checks.config.advisories = Optional.of(file.toString());
        assertThat(checks.advisories().size()).isZero();
        Files.writeString(file, "[{\"id\": \"T-1\", \"affected\": [{\"package\": {\"ecosystem\": \"npm\", "
                + "\"name\": \"x\"}, \"versions\": [\"1.0.0\"]}]}]");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(checks.advisories().size()).isEqualTo(1);
        checks.config.advisories = Optional.empty();
        assertThat(checks.advisories().size()).isGreaterThanOrEqualTo(8);
    }

    @Test
    void whenAScheduledScanFindsAVulnerableDependencyThenItRejectsWithoutRunningTheAgent() throws IOException {
        checks.executor = new dev.atrium.sandbox.Executor() {
            @Override
            public dev.atrium.sandbox.SandboxCapabilities capabilities() {
                return new ProcessExecutor().capabilities();
            }

            @Override
            public dev.atrium.sandbox.RunResult run(dev.atrium.sandbox.RunSpec spec) {
                throw new AssertionError("a scheduled re-scan ran the agent");
            }
        };

        var report = checks.check(CARD, tarGz(Map.of("main.py", ECHO, "requirements.txt", "PyYAML==5.3.1\n")),
                "tar.gz", SafetyChecks.Scope.WITHOUT_RUNS);

        assertThat(statuses(report)).containsExactly("smoke_tests=not_run", "static_scan=passed",
                "dependencies=failed", "prompt_injection=not_run", "network_audit=not_run", "resources=not_run");
        assertThat(report.rejects()).isTrue();
        assertThat(report.check("smoke_tests").orElseThrow().summary()).isEqualTo(SafetyChecks.NOT_RUN_SCHEDULED);
    }

    @Test
    void whenTheAdvisoryRecordsChangeThenTheFingerprintChangesButNotForFormatting() throws IOException {
        String record = "{\"id\": \"T-1\", \"affected\": [{\"package\": {\"ecosystem\": \"npm\", "
                + "\"name\": \"x\"}, \"versions\": [\"1.0.0\"]}]}";
        Path file = dir.resolve("advisories.osv.json");
        Files.writeString(file, "[" + record + "]");
        checks.config.advisories = Optional.of(file.toString());
        String first = checks.advisoriesFingerprint();

        Files.writeString(file, "[\n  " + record.replace(", ", ",\n    ") + "\n]\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        String reformatted = checks.advisoriesFingerprint();
        Files.writeString(file, "[" + record + ", " + record.replace("T-1", "T-2") + "]");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        String added = checks.advisoriesFingerprint();

        assertThat(first).matches("[0-9a-f]{16}").isEqualTo(reformatted).isNotEqualTo(added);
        checks.config.advisories = Optional.empty();
        assertThat(checks.advisoriesFingerprint()).isNotEqualTo(first).isNotEqualTo(added);
    }
}
