package dev.atrium.marketplace.control.checks;

import static dev.atrium.sandbox.TestImages.E;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.runtime.SandboxSlots;
import dev.atrium.marketplace.control.submission.BundleInspector;
import dev.atrium.marketplace.control.submission.CardValidation;
import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.marketplace.entity.checks.SafetyReport;
import dev.atrium.marketplace.entity.checks.Severity;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.sandbox.BubblewrapExecutor;
import dev.atrium.sandbox.TestImages;

/**
 * The pre-listing checks of an agent uploaded as an image archive, run in the real sandbox: a busybox image whose
 * shell agent passes its smoke tests, with its installed packages compared against the advisories and the image
 * scanned; a hostile image refused at unpacking; one refused by the scan for an embedded private key.
 */
class ImageChecksTest {

    static final String CARD = "{\"name\": \"image-echo\", \"version\": \"1.0.0\", \"runtime\": {\"docker_image\": "
            + "\"image-echo:1.0.0\"}, \"input_schema\": {\"type\": \"object\", \"properties\": {\"text\": "
            + "{\"type\": \"string\"}}}, \"output_schema\": {\"type\": \"object\"},"
            + " \"test_cases\": [{\"input\": {\"text\": \"hi\"}, \"expected\": {\"result\": \"hi\"}}]}";
    /** Answers {"output":{"result":<text>}} for {"text":<text>}: sed keeps the value of "text". */
    static final String AGENT = """
            #!/bin/sh
            text=$(cat | sed -n 's/.*"text"[^"]*"\\([^"]*\\)".*/\\1/p')
            printf '{"output":{"result":"%s"}}\\n' "$text"
            """;
    static final String RUN = "{\"Entrypoint\":[\"/app/agent.sh\"],\"WorkingDir\":\"/app\",\"Env\":[\"PATH=/bin\"]}";
    static final String DPKG = """
            Package: fixture-lib
            Status: install ok installed
            Version: 1.0-1

            Package: removed-lib
            Status: deinstall ok config-files
            Version: 0.1
            """;

    @TempDir
    static Path shared;
    private static BubblewrapExecutor executor;

    @TempDir
    Path dir;

    private final SafetyChecks checks = new SafetyChecks();

    @BeforeAll
    static void sandbox() throws IOException {
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwx--x--x"));
        executor = BubblewrapExecutor.create(shared.resolve("work"));
        assertThat(executor.capabilities().canRunUntrusted()).as(executor.capabilities().problems().toString())
                .isTrue();
        assertThat(Path.of("/bin/busybox")).as("busybox-static: run scripts/services").exists();
    }

    @BeforeEach
    void wire() throws IOException {
        checks.executor = executor;
        checks.slots = new SandboxSlots(2, Duration.ofSeconds(5));
        checks.cards = new CardValidation();
        checks.cards.compile();
        checks.config = ConfigDefaults.of(MarketplaceConfig.class);
        checks.config.imageMaxEntries = 1000;
        checks.config.imageMaxUnpackedBytes = 64L * 1024 * 1024;
        checks.config.checksBudgetSeconds = 60;
        Path advisories = dir.resolve("advisories.json");
        Files.writeString(advisories, "[{\"id\":\"DSA-0000-1\",\"summary\":\"fixture flaw\",\"affected\":[{"
                + "\"package\":{\"ecosystem\":\"Debian:12\",\"name\":\"fixture-lib\"},\"ranges\":[{\"type\":"
                + "\"ECOSYSTEM\",\"events\":[{\"introduced\":\"0\"},{\"fixed\":\"1.0-2\"}]}]}]}]");
        checks.config.advisories = Optional.of(advisories.toString());
    }

    private Path archive(byte[] bytes) throws IOException {
        Path file = dir.resolve("image.tar");
        Files.write(file, bytes);
        return file;
    }

    private static List<String> statuses(SafetyReport report) {
        return report.checks().stream().map(c -> c.name() + "=" + c.status().value()).toList();
    }

    private static List<CheckFinding> findings(SafetyReport report, String check) {
        return report.check(check).orElseThrow().findings();
    }

    @Test
    void whenABusyboxImageAgentBehavesThenItsChecksRunAndItIsNotRejected() throws IOException {
        byte[] image = TestImages.busybox(List.of(E.d("app"),
                E.f("app/agent.sh", AGENT.getBytes(StandardCharsets.UTF_8), 0755),
                E.f("var/lib/dpkg/status", DPKG), E.f("usr/bin/passwd", "x".getBytes(), 04755)), RUN);

        SafetyReport report = checks.check(CARD, archive(image), BundleInspector.IMAGE);

        assertThat(report.rejects()).as(report.summary()).isFalse();
        // medium and low findings do not fail a check; only a high one rejects
        assertThat(statuses(report)).containsExactly("smoke_tests=passed", "static_scan=passed",
                "dependencies=passed", "image_scan=passed", "prompt_injection=passed", "network_audit=passed",
                "resources=passed");
        assertThat(findings(report, "dependencies")).singleElement().satisfies(f -> {
            assertThat(f.pointer()).isEqualTo("var/lib/dpkg/status:1");
            assertThat(f.message()).contains("Debian package fixture-lib 1.0-1", "DSA-0000-1");
        });
        assertThat(findings(report, "image_scan")).extracting(CheckFinding::pointer)
                .contains("usr/bin/passwd (setuid)", "var/lib/dpkg/status");
        assertThat(report.check("static_scan").orElseThrow().summary()).contains("/app");
    }

    @Test
    void whenTheScheduledReScanChecksAnImageThenItReadsTheImageWithoutRunningIt() throws IOException {
        byte[] image = TestImages.busybox(List.of(E.d("app"),
                E.f("app/agent.sh", AGENT.getBytes(StandardCharsets.UTF_8), 0755),
                E.f("root/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n")), RUN);

        SafetyReport report = checks.check(CARD, archive(image), BundleInspector.IMAGE,
                SafetyChecks.Scope.WITHOUT_RUNS);

        // the static scan, the packages and the image scan run, none of the checks that run the agent
        assertThat(statuses(report)).containsExactly("smoke_tests=not_run", "static_scan=passed",
                "dependencies=passed", "image_scan=failed", "prompt_injection=not_run", "network_audit=not_run",
                "resources=not_run");
        assertThat(report.rejects()).isTrue();
        assertThat(report.check("smoke_tests").orElseThrow().summary()).isEqualTo(SafetyChecks.NOT_RUN_SCHEDULED);
    }

    @Test
    void whenTheImageHasADeviceNodeThenItIsRefusedAtUnpacking() throws IOException {
        byte[] image = TestImages.busybox(List.of(E.c("dev/kmem"), E.f("app/agent.sh", AGENT)), RUN);

        SafetyReport report = checks.check(CARD, archive(image), BundleInspector.IMAGE);

        assertThat(report.rejects()).isTrue();
        assertThat(findings(report, "image_scan")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.message()).contains("could not be unpacked", "Device and FIFO");
        });
    }

    @Test
    void whenTheImageEmbedsAPrivateKeyThenTheScanRejectsIt() throws IOException {
        byte[] image = TestImages.busybox(List.of(E.d("app"),
                E.f("app/agent.sh", AGENT.getBytes(StandardCharsets.UTF_8), 0755),
                E.f("root/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n")), RUN);

        SafetyReport report = checks.check(CARD, archive(image), BundleInspector.IMAGE);

        assertThat(report.rejects()).isTrue();
        assertThat(findings(report, "image_scan")).anySatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.HIGH);
            assertThat(f.pointer()).isEqualTo("root/.ssh/id_rsa");
            assertThat(f.message()).contains("private key");
        });
    }

    @Test
    void whenTheImageAndCardNameNoCommandThenTheSmokeTestsFail() throws IOException {
        byte[] image = TestImages.busybox(List.of(E.f("app/agent.sh", AGENT)), "{}");
        SafetyReport report = checks.check(CARD, archive(image), BundleInspector.IMAGE);
        assertThat(report.rejects()).isTrue();
        assertThat(findings(report, "smoke_tests")).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("no Entrypoint or Cmd"));
    }
}
