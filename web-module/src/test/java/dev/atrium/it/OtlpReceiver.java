package dev.atrium.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/**
 * An OTLP/HTTP collector in the test JVM: it takes the spans the server exports (protobuf, {@code /v1/traces}), keeps
 * the latest {@value #KEPT} and answers success; other signals are taken and dropped. The services suite's server
 * exports to it ({@link #environment()}), so that a test can follow one trace across the server (TraceIT).
 */
final class OtlpReceiver implements AutoCloseable {

    static final int KEPT = 20_000;

    /** One span as exported: ids in lower-case hex, the parent empty for a root. */
    record Received(String traceId, String spanId, String parentSpanId, String name, String kind,
                    List<String> linkedSpanIds, Map<String, String> attributes) {
    }

    private final HttpServer server;
    private final ArrayDeque<Received> spans = new ArrayDeque<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() throws IOException {
        var server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        var receiver = new OtlpReceiver(server);
        server.createContext("/", receiver::handle);
        server.start();
        return receiver;
    }

    /** The server's exporter settings: OTLP over HTTP with protobuf, here, every 200 ms. */
    Map<String, String> environment() {
        return Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + server.getAddress().getPort(),
                "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                "OTEL_BSP_SCHEDULE_DELAY", "200");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                    ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            if (exchange.getRequestURI().getPath().equals("/v1/traces")) {
                take(ExportTraceServiceRequest.parseFrom(body));
            }
            // an empty Export*ServiceResponse: full success
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
        }
    }

    private synchronized void take(ExportTraceServiceRequest request) {
        for (var resource : request.getResourceSpansList()) {
            for (var scope : resource.getScopeSpansList()) {
                for (var span : scope.getSpansList()) {
                    var attributes = new java.util.LinkedHashMap<String, String>();
                    span.getAttributesList().forEach(a -> attributes.put(a.getKey(), text(a.getValue())));
                    spans.addLast(new Received(hex(span.getTraceId()), hex(span.getSpanId()),
                            hex(span.getParentSpanId()), span.getName(), span.getKind().name(),
                            span.getLinksList().stream().map(l -> hex(l.getSpanId())).toList(), attributes));
                    if (spans.size() > KEPT) {
                        spans.removeFirst();
                    }
                }
            }
        }
    }

    private static String text(io.opentelemetry.proto.common.v1.AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> Long.toString(value.getIntValue());
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            default -> value.toString();
        };
    }

    private static String hex(ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    /** Every span kept so far. */
    synchronized List<Received> all() {
        return List.copyOf(spans);
    }

    /** The spans received so far of the trace. */
    synchronized List<Received> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    /** Waits up to {@code timeout} until the received spans of the trace satisfy {@code done}; answers them. */
    List<Received> await(String traceId, Duration timeout, Predicate<List<Received>> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        var spans = trace(traceId);
        while (!done.test(spans) && System.nanoTime() < deadline) {
            Accounts.sleep(100);
            spans = trace(traceId);
        }
        return spans;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
