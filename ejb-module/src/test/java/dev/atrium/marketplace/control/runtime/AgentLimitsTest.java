package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.sandbox.Limits;

class AgentLimitsTest {

    @ParameterizedTest(name = "{0}: declared {1} MB / {2} s → {3} MB / {4} s")
    @CsvSource(nullValues = "-", value = {
            "UNVERIFIED, -,    -,   256,  30",
            "UNVERIFIED, 128,  10,  128,  10",
            "UNVERIFIED, 1024, 120, 256,  30",
            "COMMUNITY,  -,    -,   256,  60",
            "COMMUNITY,  1024, 90,  512,  60",
            "COMMUNITY,  300,  45,  300,  45",
            "OFFICIAL,   -,    -,   256,  120",
            "OFFICIAL,   1024, 120, 1024, 120",
            "OFFICIAL,   64,   5,   64,   5"})
    void whenDeclaredAndTrustedThenTheStricterOfDeclarationAndCeilingApplies(TrustLevel trust, Integer memoryMb,
                                                                             Integer timeoutS, int expectedMb,
                                                                             int expectedS) {
        var declared = new Permissions(false, false, List.of(), memoryMb, timeoutS, null, List.of());

        Limits limits = AgentLimits.of(declared, trust);

        assertThat(limits.memoryBytes()).isEqualTo(expectedMb * Limits.MIB);
        assertThat(limits.timeout()).isEqualTo(Duration.ofSeconds(expectedS));
        assertThat(limits.cpuPercent()).isEqualTo(50);
    }

    @ParameterizedTest(name = "{0}: declared {1} % CPU → {2} %")
    @CsvSource(nullValues = "-", value = {
            "UNVERIFIED, -,   50",
            "UNVERIFIED, 20,  20",
            "UNVERIFIED, 90,  50",
            "UNVERIFIED, 200, 50",
            "COMMUNITY,  -,   50",
            "COMMUNITY,  80,  80",
            "COMMUNITY,  200, 100",
            "OFFICIAL,   -,   50",
            "OFFICIAL,   150, 150",
            "OFFICIAL,   10,  10"})
    void whenCpuIsDeclaredThenItIsCappedByTheTrustCeiling(TrustLevel trust, Integer declaredPercent, int expected) {
        var declared = new Permissions(false, false, List.of(), null, null, declaredPercent, List.of());

        Limits limits = AgentLimits.of(declared, trust);

        // a machine with fewer CPUs than the ceiling caps it further
        assertThat(limits.cpuPercent()).isEqualTo(Math.min(expected, 100 * Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void whenACardDeclaresCpuThenItIsRead() {
        var permissions = Permissions.of("""
                {"runtime": {"entrypoint": ["python3", "main.py"]}, "permissions": {"max_cpu_percent": 20}}""");

        assertThat(permissions.maxCpuPercent()).isEqualTo(20);
        assertThat(Permissions.of("{\"permissions\": {\"max_cpu_percent\": 1e30}}").maxCpuPercent()).isNull();
    }

    @ParameterizedTest(name = "{0}, declared {1} → network {2}")
    @CsvSource({"UNVERIFIED, true, false", "UNVERIFIED, false, false", "COMMUNITY, true, true",
            "COMMUNITY, false, false", "OFFICIAL, true, true", "OFFICIAL, false, false"})
    void whenNetworkIsDeclaredThenOnlyATrustLevelThatAllowsItGetsIt(TrustLevel trust, boolean declared,
                                                                   boolean expected) {
        var permissions = new Permissions(declared, false, List.of(), null, null, null, List.of());

        assertThat(AgentLimits.network(permissions, trust)).isEqualTo(expected);
    }

    @Test
    void whenACardDeclaresInBothPlacesThenTheStricterValueIsRead() {
        var permissions = Permissions.of("""
                {"runtime": {"memory_mb": 200, "timeout_s": 50, "requires_network": false},
                 "permissions": {"max_memory_mb": 300, "max_execution_time_s": 20, "requires_network": true,
                                 "requires_filesystem": true, "allowed_domains": ["api.example.com"],
                                 "allowed_env_vars": ["API_TOKEN"]}}""");

        assertThat(permissions.maxMemoryMb()).isEqualTo(200);
        assertThat(permissions.maxExecutionS()).isEqualTo(20);
        assertThat(permissions.network()).isTrue();
        assertThat(permissions.filesystem()).isTrue();
        assertThat(permissions.allowedDomains()).containsExactly("api.example.com");
        assertThat(permissions.allowedEnvVars()).containsExactly("API_TOKEN");
    }

    @Test
    void whenACardDeclaresNothingThenNothingIsGranted() {
        var permissions = Permissions.of("{\"runtime\": {\"entrypoint\": [\"python3\", \"main.py\"]}}");

        assertThat(permissions).isEqualTo(Permissions.NONE);
    }
}
