package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads a server-sent event stream line by line, noting when each event arrived. */
public final class EventStream {

    /** One {@code data:} event and the moment it arrived (nanoseconds, for spacing only). */
    public record Event(JsonNode data, long arrivedNanos) {
    }

    /** The response head and the events read. */
    public record Result(int status, java.net.http.HttpHeaders headers, List<Event> events, String errorBody) {
    }

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private EventStream() {
    }

    public static Result post(String path, String token, Object body) {
        return read(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("X-Forwarded-For", "10.200.0." + (1 + (int) (Math.random() * 250)))
                .POST(HttpRequest.BodyPublishers.ofString(Api.json(body))), e -> false);
    }

    public static Result get(String path, String token) {
        return read(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + path))
                .header("Authorization", "Bearer " + token).GET(), e -> false);
    }

    /** Reads until {@code stopAfter} matches an event, then drops the connection, as a client that goes away. */
    public static Result postUntil(String path, String token, Object body, Predicate<Event> stopAfter) {
        return read(HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Api.json(body))), stopAfter);
    }

    private static Result read(HttpRequest.Builder request, Predicate<Event> stopAfter) {
        try {
            var response = CLIENT.send(request.timeout(Duration.ofSeconds(120)).build(),
                    HttpResponse.BodyHandlers.ofLines());
            var events = new ArrayList<Event>();
            if (response.statusCode() != 200) {
                return new Result(response.statusCode(), response.headers(), events,
                        String.join("\n", response.body().toList()));
            }
            try (var lines = response.body()) {
                var it = lines.iterator();
                while (it.hasNext()) {
                    String line = it.next();
                    if (line.startsWith("data:")) {
                        var event = new Event(Api.JSON.readTree(line.substring(5).trim()), System.nanoTime());
                        events.add(event);
                        if (stopAfter.test(event)) {
                            break;
                        }
                    }
                }
            }
            return new Result(200, response.headers(), events, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
