package dev.atrium.platform.telemetry;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns MicroProfile Telemetry on exactly when an OTLP endpoint is configured ({@code OTEL_EXPORTER_OTLP_ENDPOINT} or
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}, or their system properties): {@code otel.sdk.disabled} is false then and
 * true otherwise, so that a server without a collector neither records nor exports spans. Also names the service
 * {@code atrium} and exports no logs (Payara's SDK exports no metrics already). Its ordinal is below the environment's
 * and the system properties', so {@code OTEL_SDK_DISABLED}, {@code OTEL_SERVICE_NAME} and the like still decide.
 */
public class OtlpSwitch implements ConfigSource {

    static final String DISABLED = "otel.sdk.disabled";
    static final int ORDINAL = 150;
    private static final Set<String> ENDPOINTS = Set.of("otel.exporter.otlp.endpoint",
            "otel.exporter.otlp.traces.endpoint");

    private final Map<String, String> properties;

    public OtlpSwitch() {
        this(System.getenv(), System.getProperties());
    }

    OtlpSwitch(Map<String, String> environment, Properties system) {
        boolean endpoint = ENDPOINTS.stream().anyMatch(key -> present(system.getProperty(key))
                || present(environment.get(key.toUpperCase(Locale.ROOT).replace('.', '_'))));
        properties = endpoint
                ? Map.of(DISABLED, "false", "otel.service.name", "atrium", "otel.logs.exporter", "none")
                : Map.of(DISABLED, "true");
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return properties.get(propertyName);
    }

    @Override
    public String getName() {
        return "atrium-otlp-switch";
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
