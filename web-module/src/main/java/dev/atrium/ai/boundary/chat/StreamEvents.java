package dev.atrium.ai.boundary.chat;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.glassfish.jersey.server.ChunkedOutput;

import dev.atrium.platform.boundary.json.Json;
import dev.atrium.platform.error.BusinessException;

/**
 * Writes spec 02's server-sent events ({@code data: <JSON>} then a blank line), each sent and flushed as soon as it
 * is produced. A send that fails means the client went away: {@link #gone()} turns true and later events are dropped
 * (the answer itself goes on being generated and cached for resume).
 * Events go to a JAX-RS {@link SseEventSink}, or to a Jersey {@link ChunkedOutput} where the resource must choose
 * between a stream and a plain response (smart-stream); both flush each event.
 */
final class StreamEvents {

    /** Where the events go. */
    private interface Channel {
        void send(Map<String, ?> data) throws Exception;

        boolean closed();

        void close() throws Exception;
    }

    private final Channel channel;
    private final AtomicBoolean gone = new AtomicBoolean();

    StreamEvents(SseEventSink sink, Sse sse) {
        this.channel = new Channel() {
            @Override
            public void send(Map<String, ?> data) throws Exception {
                sink.send(sse.newEventBuilder().mediaType(MediaType.APPLICATION_JSON_TYPE).data(String.class,
                        Json.write(data)).build()).toCompletableFuture().get(30, TimeUnit.SECONDS);
            }

            @Override
            public boolean closed() {
                return sink.isClosed();
            }

            @Override
            public void close() {
                sink.close();
            }
        };
    }

    StreamEvents(ChunkedOutput<String> output) {
        this.channel = new Channel() {
            @Override
            public void send(Map<String, ?> data) throws IOException {
                output.write("data: " + Json.write(data) + "\n\n");
            }

            @Override
            public boolean closed() {
                return output.isClosed();
            }

            @Override
            public void close() throws IOException {
                output.close();
            }
        };
    }

    void send(Map<String, ?> data) {
        if (gone.get() || channel.closed()) {
            gone.set(true);
            return;
        }
        try {
            channel.send(data);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            gone.set(true);
        } catch (Exception e) {
            gone.set(true);
        }
    }

    boolean gone() {
        return gone.get() || channel.closed();
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
            channel.close();
        } catch (Exception ignored) {
            // the client may already be gone
        }
    }
}
