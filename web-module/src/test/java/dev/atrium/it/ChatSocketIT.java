package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/** Spec 02's chat WebSocket, with the JDK's WebSocket client. */
@ExtendWith(AtriumServer.class)
class ChatSocketIT {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeEach
    void onlyWithServices() {
        assumeFalse(AtriumServer.get().embedded());
    }

    /** A connected client that queues what the server sends, and how it closed. */
    static final class Client implements WebSocket.Listener {
        final LinkedBlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        WebSocket socket;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    frames.add(Api.JSON.readTree(partial.toString()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(-1);
        }

        JsonNode next() throws InterruptedException {
            JsonNode frame = frames.poll(20, TimeUnit.SECONDS);
            assertThat(frame).as("a frame from the server").isNotNull();
            return frame;
        }

        List<JsonNode> untilDone() throws InterruptedException {
            var all = new java.util.ArrayList<JsonNode>();
            JsonNode frame;
            do {
                frame = next();
                all.add(frame);
            } while (!frame.get("type").asText().equals("done") && !frame.get("type").asText().equals("error"));
            return all;
        }
    }

    private static String wsUrl(String path) {
        return AtriumServer.get().baseUrl().replace("http://", "ws://") + path;
    }

    static Client connect(String path, String bearer) throws Exception {
        var client = new Client();
        var builder = CLIENT.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        if (bearer != null) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        client.socket = builder.buildAsync(URI.create(wsUrl(path)), client).get(10, TimeUnit.SECONDS);
        return client;
    }

    @Test
    void whenMessagesAreSentThenContentFragmentsAndThenDone() throws Exception {
        var user = Accounts.verified("ws");
        var client = connect("/ws/chat/" + user.id(), user.accessToken());
        client.socket.sendText("{\"messages\":[{\"role\":\"user\",\"content\":\"hello over websockets\"}]}", true);
        var frames = client.untilDone();
        assertThat(frames.get(frames.size() - 1).get("type").asText()).isEqualTo("done");
        String text = frames.stream().filter(f -> f.get("type").asText().equals("content"))
                .map(f -> f.get("content").asText()).reduce("", String::concat);
        assertThat(text).isEqualTo("Echo: hello over websockets");
        assertThat(frames.size()).isGreaterThan(3);

        client.socket.sendText("{\"messages\": 42}", true);
        var error = client.next();
        assertThat(error.get("type").asText()).isEqualTo("error");
        assertThat(error.at("/error/code").asInt()).isEqualTo(40001);
        client.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
    }

    @Test
    void whenTheModelIsUnknownOrNotInTheTierThenTheErrorIs40300BeforeTheMessagesAreValidated() throws Exception {
        var user = Accounts.verified("wsmodel");
        var client = connect("/ws/chat/" + user.id(), user.accessToken());
        for (String text : List.of("{\"model\":\"gpt-9\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "{\"model\":\"gpt-9\",\"messages\":42}", "{\"model\":\"echo-pro\",\"messages\":[]}")) {
            client.socket.sendText(text, true);
            var error = client.next();
            assertThat(error.get("type").asText()).as(text).isEqualTo("error");
            assertThat(error.at("/error/code").asInt()).as(text).isEqualTo(40300);
        }
        client.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
    }

    @Test
    void whenTheTokenComesAsAQueryParameterThenItAuthenticatesToo() throws Exception {
        var user = Accounts.verified("wsquery");
        var client = connect("/ws/chat/" + user.id() + "?token=" + user.accessToken(), null);
        client.socket.sendText("{\"messages\":[{\"role\":\"user\",\"content\":\"via query\"}]}", true);
        assertThat(client.untilDone()).last().satisfies(f -> assertThat(f.get("type").asText()).isEqualTo("done"));
    }

    @Test
    void whenThePathIsAnotherUsersOrTheTokenIsMissingThenTheHandshakeIsRefusedInTheEnvelopeAndNothingIsUpgraded()
            throws Exception {
        var user = Accounts.verified("wsintruder");
        var other = Accounts.verified("wsvictim");
        var cases = new LinkedHashMap<String, Integer>();
        cases.put("/ws/chat/" + other.id() + " " + user.accessToken(), 403);
        cases.put("/ws/chat/" + other.id() + "?token=" + user.accessToken() + " -", 403);
        cases.put("/ws/chat/" + user.id() + " -", 401);
        cases.put("/ws/chat/" + user.id() + " eyforged.token.value", 401);
        cases.put("/ws/chat/" + user.id() + "?token=eyforged.token.value -", 401);
        cases.put("/ws/chat/" + user.id() + "?token= -", 401);
        // paths that are not the caller's own, however they are spelled
        for (String path : List.of("/ws/chat/0" + user.id(), "/ws/chat/%3" + (user.id() % 10), "/ws/chat/abc",
                "/ws/chat/" + user.id() + "/x", "/ws/chat/" + user.id() + ";x=1", "/ws/chat/-" + user.id(),
                "/ws/chat/" + user.id() + "/../" + other.id(), "/ws/chat/" + user.id() + "/")) {
            cases.put(path + " " + user.accessToken(), 403);
        }
        var soft = new SoftAssertions();
        cases.forEach((request, status) -> {
            String[] parts = request.split(" ", 2);
            try {
                Reply reply = WebSocketHandshake.send(parts[0], parts[1].equals("-") ? null : parts[1]);
                String as = parts[0] + ": " + reply;
                soft.assertThat(WebSocketHandshake.upgraded(reply)).as(as).isFalse();
                soft.assertThat(reply.status()).as(as).isEqualTo(status);
                soft.assertThat(reply.code()).as(as).isEqualTo(status * 100);
                soft.assertThat(reply.header("X-Request-ID")).as(as + ": the policy filter ran first").isNotNull();
            } catch (java.io.IOException e) {
                soft.fail(parts[0] + ": " + e);
            }
        });
        soft.assertAll();
        // what the JDK's client, like a browser, sees: the handshake fails with the status, no socket opens
        var refused = CLIENT.newWebSocketBuilder().header("Authorization", "Bearer " + user.accessToken())
                .buildAsync(URI.create(wsUrl("/ws/chat/" + other.id())), new Client());
        assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(WebSocketHandshakeException.class,
                        e -> assertThat(e.getResponse().statusCode()).isEqualTo(403));
    }

    @Test
    void whenASecondConnectionOpensForTheSameUserThenItReplacesTheFirst() throws Exception {
        var user = Accounts.verified("wstwice");
        var first = connect("/ws/chat/" + user.id(), user.accessToken());
        // a round trip first: the server may run a connection's open after the client sees the handshake done
        first.socket.sendText("{\"messages\":[{\"role\":\"user\",\"content\":\"first\"}]}", true);
        first.untilDone();
        var second = connect("/ws/chat/" + user.id(), user.accessToken());
        assertThat(first.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
        second.socket.sendText("{\"messages\":[{\"role\":\"user\",\"content\":\"still here\"}]}", true);
        assertThat(second.untilDone()).last().satisfies(f -> assertThat(f.get("type").asText()).isEqualTo("done"));
    }
}
