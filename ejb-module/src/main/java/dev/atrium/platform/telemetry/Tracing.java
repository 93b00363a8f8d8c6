package dev.atrium.platform.telemetry;

import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * The tracer of the application's own spans (the outbox relay's, the consumers'): Payara's MicroProfile Telemetry
 * tracer while {@code otel.sdk.disabled} is false ({@link OtlpSwitch} sets it when an OTLP endpoint is configured),
 * else the no-op tracer. Payara's tracer is looked up only when tracing is on: the lookup itself would start an SDK for
 * the application, which would then trace every request for nothing.
 */
@ApplicationScoped
public class Tracing {

    public static final String SCOPE = "dev.atrium";

    // Payara's key, outside the atrium prefix of the configuration classes
    @Inject
    @ConfigProperty(name = "otel.sdk.disabled", defaultValue = "true")
    boolean disabled = true;

    @Inject
    Instance<Tracer> tracers;

    private volatile Tracer tracer;

    /** Whether spans are recorded and exported. */
    public boolean enabled() {
        return !disabled;
    }

    /**
     * Runs {@code work} in a span of its own, a child of the current one, current while it runs; failed when
     * {@code work} throws (the exception's type only: messages may hold a caller's data). Tracing off, just runs it.
     * Payara's {@code @WithSpan} is not used: its interceptor makes every parameter an attribute (the caller's input
     * would be exported) and fails on a {@code byte[]} parameter.
     */
    public <T> T inSpan(String name, Supplier<T> work) {
        if (disabled) {
            return work.get();
        }
        var span = tracer().spanBuilder(name).setParent(Context.current()).startSpan();
        try (var ignored = span.makeCurrent()) {
            return work.get();
        } catch (RuntimeException | Error e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    /** Payara's tracer when {@link #enabled()}, the no-op tracer otherwise. */
    public Tracer tracer() {
        var known = tracer;
        if (known == null) {
            if (disabled || tracers == null) {
                known = OpenTelemetry.noop().getTracer(SCOPE);
            } else {
                known = tracers.get();
                // the first call creates Payara's tracer, which must happen while the application is known: here,
                // not later on a thread of the relay or a consumer
                known.spanBuilder(SCOPE);
            }
            tracer = known;
        }
        return known;
    }
}
