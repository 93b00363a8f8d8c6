package dev.atrium.platform.telemetry;

import java.util.List;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

/**
 * A trace's context as the W3C {@code traceparent} text, where it waits between threads and processes: in an outbox row
 * and in a message property ({@value #PROPERTY}). Reading one never fails: text that is not a valid traceparent (a
 * hostile property, a truncated column) is as if there were none, and whatever is handled next starts a new trace.
 */
public final class TraceParents {

    /** The message property carrying the producer's context, named as the W3C header (a valid JMS identifier). */
    public static final String PROPERTY = "traceparent";
    /** {@code 00-<32 hex>-<16 hex>-<2 hex>}; longer text is refused before it is parsed. */
    public static final int LENGTH = 55;

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
    private static final TextMapGetter<String> ONE_HEADER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(PROPERTY);
        }

        @Override
        public String get(String carrier, String key) {
            return PROPERTY.equals(key) ? carrier : null;
        }
    };

    private TraceParents() {
    }

    /** The traceparent of the span current on this thread, or null when none is valid (tracing off, no trace). */
    public static String current() {
        return of(Context.current());
    }

    /** The traceparent of the context's span, or null when it has no valid span. */
    public static String of(Context context) {
        try {
            var span = Span.fromContext(context).getSpanContext();
            if (!span.isValid()) {
                return null;
            }
            var carrier = new String[1];
            W3C.inject(context, carrier, (c, key, value) -> {
                if (PROPERTY.equals(key)) {
                    c[0] = value;
                }
            });
            return carrier[0];
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The remote span context the text names, or an invalid one when it names none. */
    public static SpanContext spanContext(String traceparent) {
        return Span.fromContext(parent(traceparent)).getSpanContext();
    }

    /**
     * A root context holding the text's span as a remote parent; the plain root context (a new trace) when the text is
     * null, blank, too long or not a valid traceparent.
     */
    public static Context parent(String traceparent) {
        if (traceparent == null || traceparent.isEmpty() || traceparent.length() > LENGTH) {
            return Context.root();
        }
        try {
            var context = W3C.extract(Context.root(), traceparent.trim(), ONE_HEADER);
            return Span.fromContext(context).getSpanContext().isValid() ? context : Context.root();
        } catch (RuntimeException e) {
            return Context.root();
        }
    }
}
