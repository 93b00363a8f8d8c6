package dev.atrium.platform.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/** Tracing is on exactly when an OTLP endpoint is configured, and the environment still decides over it. */
class OtlpSwitchTest {

    private static Properties properties(String... pairs) {
        var properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    @Test
    void whenNoEndpointIsSetThenTheSdkIsDisabled() {
        var source = new OtlpSwitch(Map.of("PATH", "/usr/bin"), properties());
        assertThat(source.getValue(OtlpSwitch.DISABLED)).isEqualTo("true");
        assertThat(source.getPropertyNames()).containsExactly(OtlpSwitch.DISABLED);
    }

    @Test
    void whenTheEndpointIsBlankThenTheSdkIsDisabled() {
        var source = new OtlpSwitch(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "  "), properties());
        assertThat(source.getValue(OtlpSwitch.DISABLED)).isEqualTo("true");
    }

    @Test
    void whenTheEnvironmentNamesAnEndpointThenTheSdkIsEnabledForTheAtriumService() {
        for (var variable : new String[]{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"}) {
            var source = new OtlpSwitch(Map.of(variable, "http://collector:4318"), properties());
            assertThat(source.getValue(OtlpSwitch.DISABLED)).as(variable).isEqualTo("false");
            assertThat(source.getValue("otel.service.name")).isEqualTo("atrium");
            assertThat(source.getValue("otel.logs.exporter")).isEqualTo("none");
        }
    }

    @Test
    void whenASystemPropertyNamesAnEndpointThenTheSdkIsEnabled() {
        var source = new OtlpSwitch(Map.of(), properties("otel.exporter.otlp.endpoint", "http://collector:4318"));
        assertThat(source.getValue(OtlpSwitch.DISABLED)).isEqualTo("false");
    }

    @Test
    void whenRankedThenTheEnvironmentAndSystemPropertiesOutrankTheSwitch() {
        // MicroProfile Config: system properties 400, environment 300, microprofile-config.properties 100
        assertThat(new OtlpSwitch(Map.of(), properties()).getOrdinal()).isBetween(101, 299);
    }
}
