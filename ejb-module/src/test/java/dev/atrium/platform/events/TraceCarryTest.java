package dev.atrium.platform.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import dev.atrium.platform.messaging.ConsumerTrace;
import dev.atrium.platform.messaging.Messaging;
import dev.atrium.platform.telemetry.TraceParents;

/**
 * The trace context's way from the span that writes an outbox row, through the row and the message property, to the
 * consumer's span; and what hostile or broken traceparent values do there: nothing but start a new trace.
 */
class TraceCarryTest {

    private static final Instant NOW = Instant.parse("2026-11-28T00:00:00Z");
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String WRITER = "00f067aa0ba902b7";
    private static final String VALID = "00-" + TRACE + "-" + WRITER + "-01";
    private static final Pattern WELL_FORMED = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

    record Event(String destination, String payload) implements ApplicationEvent {
    }

    private final List<SpanData> exported = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(new SpanExporter() {
                @Override
                public CompletableResultCode export(java.util.Collection<SpanData> spans) {
                    exported.addAll(spans);
                    return CompletableResultCode.ofSuccess();
                }

                @Override
                public CompletableResultCode flush() {
                    return CompletableResultCode.ofSuccess();
                }

                @Override
                public CompletableResultCode shutdown() {
                    return CompletableResultCode.ofSuccess();
                }
            }))
            .build();
    private final io.opentelemetry.api.trace.Tracer tracer = provider.get("test");

    @AfterEach
    void close() {
        provider.close();
    }

    private static OutboxEvent row(String destination, String payload, String traceParent) {
        return new OutboxEvent(new Event(destination, payload), NOW, traceParent);
    }

    /** A JMS message whose only property is the traceparent (null: none). */
    private static Message message(String traceParent) {
        return (Message) Proxy.newProxyInstance(TraceCarryTest.class.getClassLoader(), new Class<?>[]{Message.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getStringProperty" -> TraceParents.PROPERTY.equals(args[0]) ? traceParent : null;
                    case "toString" -> "message(" + traceParent + ")";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A message whose properties cannot be read at all. */
    private static Message unreadable() {
        return (Message) Proxy.newProxyInstance(TraceCarryTest.class.getClassLoader(), new Class<?>[]{Message.class},
                (proxy, method, args) -> {
                    throw new JMSException("broken");
                });
    }

    @Test
    void whenARowIsWrittenInASpanThenTheMessageCarriesItsTraceAndTheConsumerSpanContinuesIt() {
        var writer = SpanContext.create(TRACE, WRITER, TraceFlags.getSampled(), TraceState.getDefault());
        OutboxEvent written;
        try (var ignored = Context.root().with(Span.wrap(writer)).makeCurrent()) {
            written = row("billing", "u1", TraceParents.current());
        }
        assertThat(written.traceParent()).isEqualTo(VALID);

        var spans = new ArrayList<Span>();
        Messaging.Outgoing outgoing = OutboxRelay.traced(List.of(written), tracer, spans);
        spans.forEach(Span::end);
        var publish = only("billing publish");
        assertThat(publish.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(publish.getTraceId()).isEqualTo(TRACE);
        assertThat(publish.getParentSpanId()).isEqualTo(WRITER);
        assertThat(outgoing.traceParent()).isEqualTo("00-" + TRACE + "-" + publish.getSpanId() + "-01");

        try (var ignored = ConsumerTrace.open(tracer, "billing", List.of(message(outgoing.traceParent())))) {
            assertThat(Span.current().getSpanContext().getTraceId()).as("current while the handler runs")
                    .isEqualTo(TRACE);
        }
        var consume = only("billing process");
        assertThat(consume.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(consume.getTraceId()).isEqualTo(TRACE);
        assertThat(consume.getParentSpanId()).isEqualTo(publish.getSpanId());
    }

    @Test
    void whenAPackHoldsEventsOfSeveralTracesThenItsSpanFollowsTheFirstAndLinksTheOthers() {
        String other = "00-" + "1".repeat(32) + "-" + "2".repeat(16) + "-01";
        var pack = List.of(row("billing", "u1", null), row("billing", "u2", VALID), row("billing", "u3", other));

        var spans = new ArrayList<Span>();
        var outgoing = OutboxRelay.traced(pack, tracer, spans);
        spans.forEach(Span::end);

        var publish = only("billing publish");
        assertThat(publish.getParentSpanId()).isEqualTo(WRITER);
        assertThat(publish.getLinks()).extracting(l -> l.getSpanContext().getSpanId()).containsExactly("2".repeat(16));
        assertThat(outgoing.body()).isEqualTo("u1\nu2\nu3");

        try (var ignored = ConsumerTrace.open(tracer, "billing",
                List.of(message(null), message(outgoing.traceParent()), message(other)))) {
            assertThat(Span.current().getSpanContext().isValid()).isTrue();
        }
        var consume = only("billing process");
        assertThat(consume.getParentSpanId()).isEqualTo(publish.getSpanId());
        assertThat(consume.getLinks()).extracting(l -> l.getSpanContext().getSpanId()).containsExactly("2".repeat(16));
    }

    @Test
    void whenNoRowOfAMessageWasTracedThenTheMessageCarriesNothingAndNoSpanIsMade() {
        var spans = new ArrayList<Span>();
        var outgoing = OutboxRelay.traced(List.of(row("mail", "m1", null)), tracer, spans);

        assertThat(spans).isEmpty();
        assertThat(outgoing.traceParent()).isNull();
        try (var ignored = ConsumerTrace.open(tracer, "mail", List.of(message(null), unreadable()))) {
            assertThat(Span.current().getSpanContext().isValid()).isFalse();
        }
        assertThat(exported).isEmpty();
    }

    static final List<String> HOSTILE = List.of(
            "", " ", "garbage", "00", "00-", "---",
            "00-" + "0".repeat(32) + "-" + WRITER + "-01",                      // the invalid all-zero trace id
            "00-" + TRACE + "-" + "0".repeat(16) + "-01",                       // the invalid all-zero span id
            "00-" + TRACE.toUpperCase() + "-" + WRITER + "-01",                 // upper-case hex
            "ff-" + TRACE + "-" + WRITER + "-01",                               // the forbidden version
            "00-" + TRACE + "-" + WRITER + "-01-extra",                         // version 00 has four fields
            "00-" + TRACE + "-" + WRITER,                                       // no flags
            "00-" + TRACE.substring(1) + "g-" + WRITER + "-01",                 // not hex
            "00-" + TRACE + "-" + WRITER + "-0x",
            "00_" + TRACE + "_" + WRITER + "_01",
            "00-" + TRACE + "-" + WRITER + "-01\r\nX-Injected: 1",
            "00-" + TRACE + "-" + WRITER + "-0\u0000",
            "00-" + TRACE.substring(0, 31) + "\u00e9-" + WRITER + "-01",
            "00-" + "\uD83D\uDE00".repeat(16) + "-" + WRITER + "-01",
            VALID.repeat(2),
            VALID + " ".repeat(1000),
            "x".repeat(100_000));

    @Test
    void whenTraceparentsAreHostileThenEachStartsANewTraceWithoutAnException() {
        for (String value : HOSTILE) {
            assertHarmless(value);
            assertThat(TraceParents.parent(value)).as(value).isSameAs(Context.root());
            assertThat(row("billing", "u", value).traceParent()).as(value).isNull();
        }
        assertThat(exported).as("no span from a hostile message").isEmpty();
    }

    @Test
    void whenTraceparentsAreFuzzedThenEachIsEitherWellFormedOrANewTraceAndNeverAnException() {
        var random = new Random(49);
        String alphabet = "0123456789abcdefABCDEF-_ x\u0000\r\n\u00e9\uD83D";
        for (int i = 0; i < 20_000; i++) {
            String value;
            if (random.nextBoolean()) {
                // a valid one with a few characters changed, dropped or added
                var text = new StringBuilder(VALID);
                for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                    int at = random.nextInt(text.length());
                    char c = alphabet.charAt(random.nextInt(alphabet.length()));
                    switch (random.nextInt(3)) {
                        case 0 -> text.setCharAt(at, c);
                        case 1 -> text.deleteCharAt(at);
                        default -> text.insert(at, c);
                    }
                }
                value = text.toString();
            } else {
                var text = new StringBuilder();
                for (int n = random.nextInt(70); n > 0; n--) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                value = text.toString();
            }
            assertHarmless(value);
            var context = TraceParents.parent(value);
            if (context != Context.root()) {
                assertThat(TraceParents.of(context)).as(value).matches(WELL_FORMED);
                assertThat(row("billing", "u", value).traceParent()).as(value).isEqualTo(TraceParents.of(context))
                        .hasSizeLessThanOrEqualTo(TraceParents.LENGTH);
            } else {
                assertThat(row("billing", "u", value).traceParent()).as(value).isNull();
            }
        }
    }

    private void assertHarmless(String value) {
        assertThatCode(() -> {
            TraceParents.parent(value);
            TraceParents.spanContext(value);
            var written = row("billing", "u", value);
            var spans = new ArrayList<Span>();
            OutboxRelay.traced(List.of(written), tracer, spans);
            spans.forEach(Span::end);
            try (var trace = ConsumerTrace.open(tracer, "billing", List.of(message(value)))) {
                trace.failed(new IllegalStateException("handler"));
            }
        }).as(value).doesNotThrowAnyException();
    }

    private SpanData only(String name) {
        var named = exported.stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(named).as(name + " in " + exported).hasSize(1);
        return named.get(0);
    }

    @Test
    void whenAMessageIsBuiltFromAnUntracedContextThenItCarriesNoTraceparent() {
        var outgoing = new Messaging.Outgoing("billing", false, "u", null).traced(Context.root());
        assertThat(outgoing.traceParent()).isNull();
    }
}
