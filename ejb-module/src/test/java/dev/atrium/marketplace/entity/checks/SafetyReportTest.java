package dev.atrium.marketplace.entity.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SafetyReportTest {

    @Test
    void whenAReportIsStoredAndReadBackThenNothingIsLost() {
        var report = new SafetyReport(List.of(
                CheckResult.ran("smoke_tests", "1 of 1 passed", List.of(), 120),
                CheckResult.ran("static_scan", "2 findings", List.of(CheckFinding.medium("main.py:3", "Network \"use\"\n"),
                        CheckFinding.low("big.bin", "Not scanned")), 7),
                CheckResult.notRun("prompt_injection", "No string property")));

        var read = SafetyReport.parse(report.toJson());

        assertThat(read).isEqualTo(report);
        assertThat(read.rejects()).isFalse();
        assertThat(read.summary()).isEqualTo("smoke_tests passed; static_scan passed (1 medium, 1 low); "
                + "prompt_injection not_run");
        assertThat(SafetyReport.parse(null).checks()).isEmpty();
    }

    @Test
    void whenAnyFindingIsHighThenTheCheckFailsAndTheReportRejects() {
        var check = CheckResult.ran("dependencies", "x", List.of(CheckFinding.medium("a", "m"),
                CheckFinding.high("requirements.txt:2", "pyyaml")), 1);
        assertThat(check.status()).isEqualTo(CheckStatus.FAILED);
        assertThat(new SafetyReport(List.of(check)).rejects()).isTrue();
        assertThat(new SafetyReport(List.of(check)).high()).extracting(CheckFinding::pointer)
                .containsExactly("requirements.txt:2");
    }

    @Test
    void whenThereAreTooManyFindingsThenTheHighOnesAreKeptAndTheRestCounted() {
        var findings = new ArrayList<CheckFinding>();
        for (int i = 0; i < 80; i++) {
            findings.add(CheckFinding.low("f" + i, "x".repeat(2000)));
        }
        findings.add(CheckFinding.high("last", "the one that matters"));
        var check = CheckResult.ran("static_scan", "many", findings, 1);
        assertThat(check.findings()).hasSize(CheckResult.MAX_FINDINGS);
        assertThat(check.findings().get(0).pointer()).isEqualTo("last");
        assertThat(check.failed()).isTrue();
        assertThat(check.summary()).contains("31 more findings");
        assertThat(check.findings()).allSatisfy(f -> assertThat(f.message().length()).isLessThanOrEqualTo(500));
    }
}
