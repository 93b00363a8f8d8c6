package dev.atrium.platform.messaging;

import java.util.ArrayList;
import java.util.List;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import dev.atrium.platform.telemetry.TraceParents;
import dev.atrium.platform.telemetry.Tracing;

/**
 * The consumer span of one delivery ({@code <queue> process}), continuing the trace its message carries in the
 * {@code traceparent} property: the span's parent is the first message's producer span and it links to the other
 * messages of a batch; it is current while the handler runs, so that the handler's own spans join it. Messages that
 * carry no valid traceparent (tracing off, a hostile or broken value) make no span at all.
 */
public final class ConsumerTrace implements AutoCloseable {

    /** A batch links to at most this many other messages' producers. */
    static final int MAX_LINKS = 128;
    private static final ConsumerTrace NONE = new ConsumerTrace(null, null);

    private final Span span;
    private final Scope scope;

    private ConsumerTrace(Span span, Scope scope) {
        this.span = span;
        this.scope = scope;
    }

    /** {@link #open(Tracer, String, List)} with the application's tracer. */
    public static ConsumerTrace start(Tracing tracing, String destination, List<Message> messages) {
        return open(tracing.tracer(), destination, messages);
    }

    /** Starts the span of a delivery of {@code messages} (the first one leading) and makes it current. */
    public static ConsumerTrace open(Tracer tracer, String destination, List<Message> messages) {
        var producers = new ArrayList<SpanContext>();
        for (var message : messages) {
            var producer = TraceParents.spanContext(traceParent(message));
            if (producer.isValid()) {
                producers.add(producer);
            }
        }
        if (producers.isEmpty()) {
            return NONE;
        }
        var first = producers.get(0);
        var builder = tracer.spanBuilder(destination + " process")
                .setSpanKind(SpanKind.CONSUMER)
                .setParent(Context.root().with(Span.wrap(first)))
                .setAttribute("messaging.system", "activemq")
                .setAttribute("messaging.destination.name", destination)
                .setAttribute("messaging.batch.message_count", messages.size());
        producers.subList(1, Math.min(producers.size(), MAX_LINKS)).forEach(builder::addLink);
        var span = builder.startSpan();
        return new ConsumerTrace(span, span.makeCurrent());
    }

    /** The handler failed: the delivery is rolled back. */
    public void failed(Throwable error) {
        if (span != null) {
            span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
        }
    }

    @Override
    public void close() {
        if (span != null) {
            scope.close();
            span.end();
        }
    }

    /** The message's traceparent property, or null when it has none or it cannot be read. */
    static String traceParent(Message message) {
        try {
            return message == null ? null : message.getStringProperty(TraceParents.PROPERTY);
        } catch (JMSException | RuntimeException e) {
            return null;
        }
    }
}
