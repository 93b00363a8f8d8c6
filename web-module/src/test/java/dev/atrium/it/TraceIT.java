package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One trace from the HTTP request to the billing consumer (docs/decisions/platform.md, "Traces"): the caller's
 * {@code traceparent} is the parent of the server's span, under it the invoke gateway's span, under that the sandbox
 * run; the usage event's row carries the gateway's context to the outbox relay, whose producer span continues the
 * trace and hands its context to the message, and the billing queue's consumer span is that producer's child. Spans
 * are read from the OTLP collector the services server exports to ({@link OtlpReceiver}).
 */
@ExtendWith(AtriumServer.class)
class TraceIT {

    private static final Duration EXPORTED = Duration.ofSeconds(60);

    @Test
    void whenAListedAgentIsInvokedThenOneTraceLeadsFromTheRequestThroughTheOutboxToTheBillingConsumer() {
        var staff = MarketplaceFixtures.staff();
        var agent = InvokeFixtures.listed(staff, InvokeFixtures.pythonCard("traced"), InvokeFixtures.PYTHON_ECHO);
        var api = InvokeFixtures.withApiKey(Accounts.verified("traced"));
        String traceId = hex(16);
        String callerSpan = hex(8);

        var reply = InvokeFixtures.invoke(api.header("traceparent", "00-" + traceId + "-" + callerSpan + "-01"),
                agent.id(), Map.of("text", "trace me"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);

        var collector = AtriumServer.get().otlp();
        var spans = collector.await(traceId, EXPORTED, s -> named(s, "sandbox.run").isPresent()
                && kind(s, "SPAN_KIND_PRODUCER").isPresent() && kind(s, "SPAN_KIND_CONSUMER").isPresent());
        String described = String.join("\n", spans.stream().map(Object::toString).toList());

        var server = kind(spans, "SPAN_KIND_SERVER").orElseThrow(() -> new AssertionError("no server span:\n"
                + described));
        assertThat(server.parentSpanId()).as("the server span continues the caller's trace").isEqualTo(callerSpan);
        var gateway = named(spans, "invoke.gateway").orElseThrow(() -> new AssertionError("no gateway span:\n"
                + described));
        assertThat(gateway.parentSpanId()).as(described).isEqualTo(server.spanId());
        var sandbox = named(spans, "sandbox.run").orElseThrow(() -> new AssertionError("no sandbox span:\n"
                + described));
        assertThat(sandbox.parentSpanId()).as(described).isEqualTo(gateway.spanId());

        // the usage event was written under the gateway's span; its message's producer span continues from there
        var publish = spans.stream().filter(s -> s.kind().equals("SPAN_KIND_PRODUCER")
                && s.name().equals("billing publish")).findFirst()
                .orElseThrow(() -> new AssertionError("no outbox publish span:\n" + described));
        assertThat(publish.parentSpanId()).as(described).isEqualTo(gateway.spanId());
        assertThat(publish.attributes()).containsEntry("messaging.destination.name", "billing");
        var consume = spans.stream().filter(s -> s.kind().equals("SPAN_KIND_CONSUMER")
                && s.name().equals("billing process")).findFirst()
                .orElseThrow(() -> new AssertionError("no billing consumer span:\n" + described));
        assertThat(consume.parentSpanId()).as(described).isEqualTo(publish.spanId());
    }

    private static Optional<OtlpReceiver.Received> named(List<OtlpReceiver.Received> spans, String name) {
        return spans.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    private static Optional<OtlpReceiver.Received> kind(List<OtlpReceiver.Received> spans, String kind) {
        return spans.stream().filter(s -> s.kind().equals(kind)).findFirst();
    }

    private static String hex(int bytes) {
        var random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1;
        return HexFormat.of().formatHex(random);
    }
}
