package dev.atrium.platform.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;

/** Tracing off costs nothing: Payara's tracer is never looked up, no span is current, nothing is carried. */
class TracingTest {

    @Test
    void whenTracingIsOffThenWorkRunsWithoutASpanAndPayarasTracerIsNeverLookedUp() {
        var tracing = new Tracing();
        // an Instance that is null fails any lookup: none may happen
        tracing.tracers = null;

        String carried = tracing.inSpan("invoke.gateway", TraceParents::current);

        assertThat(tracing.enabled()).isFalse();
        assertThat(carried).as("an outbox row written here carries nothing").isNull();
        assertThat(Span.current().getSpanContext().isValid()).isFalse();
        assertThat(tracing.tracer().spanBuilder("x").startSpan().isRecording()).isFalse();
    }

    @Test
    void whenWorkFailsWithTracingOffThenItsExceptionPassesUnchanged() {
        var tracing = new Tracing();
        var failure = new IllegalStateException("refused");
        assertThatThrownBy(() -> tracing.inSpan("sandbox.run", () -> {
            throw failure;
        })).isSameAs(failure);
    }
}
