package dev.atrium.ai.boundary;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import dev.atrium.platform.boundary.Json;
import dev.atrium.platform.error.BusinessException;

/**
 * Writes spec 02's server-sent events ({@code data: <JSON>} then a blank line), each sent and flushed as soon as it
 * is produced. A send that fails means the client went away: {@link #gone()} turns true, and the model is stopped.
 */
final class StreamEvents {

    private final SseEventSink sink;
    private final Sse sse;
    private final AtomicBoolean gone = new AtomicBoolean();

    StreamEvents(SseEventSink sink, Sse sse) {
        this.sink = sink;
        this.sse = sse;
    }

    void send(Map<String, ?> data) {
        if (gone.get() || sink.isClosed()) {
            gone.set(true);
            return;
        }
        try {
            sink.send(sse.newEventBuilder().mediaType(MediaType.APPLICATION_JSON_TYPE).data(String.class,
                    Json.write(data)).build()).toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            gone.set(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            gone.set(true);
        }
    }

    boolean gone() {
        return gone.get() || sink.isClosed();
    }

    /** Ends a stream that failed after it had started: the status line is long sent, so the error is an event. */
    void error(Throwable failure) {
        var error = new LinkedHashMap<String, Object>();
        if (failure instanceof BusinessException b) {
            error.put("code", b.problem().code());
            error.put("message", b.getMessage());
        } else {
            error.put("code", 50000);
            error.put("message", "Internal server error");
        }
        send(Map.of("type", "error", "error", error));
    }

    void close() {
        try {
            sink.close();
        } catch (RuntimeException ignored) {
            // the client may already be gone
        }
    }
}
