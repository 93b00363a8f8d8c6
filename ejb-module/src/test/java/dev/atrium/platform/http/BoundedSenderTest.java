package dev.atrium.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.sun.net.httpserver.HttpServer;

/** The limits hold for the whole answer, not per read: a body that never ends or trickles in is given up on. */
class BoundedSenderTest {

    private static final Duration DEADLINE = Duration.ofMillis(1_500);
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/endless", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                for (int i = 0; i < 1_000; i++) {
                    out.write(new byte[1024]);
                }
            } catch (IOException e) {
                // the client hung up, as it should
            }
        });
        server.createContext("/trickle", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
                // each read comes well within the deadline; the whole answer never does
                for (int i = 0; i < 30; i++) {
                    out.write('x');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException e) {
                // the client hung up, as it should
            }
        });
        server.createContext("/moved", exchange -> {
            exchange.getResponseHeaders().add("Location", "/endless");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private HTTPRequest get(String path) {
        return new HTTPRequest(HTTPRequest.Method.GET,
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path));
    }

    @Test
    void whenTheAnswerPassesTheLimitThenTooLargeBeforeItIsAllRead() {
        assertThatThrownBy(() -> get("/endless").send(new BoundedSender(DEADLINE, DEADLINE, 64 * 1024)))
                .isInstanceOf(BoundedSender.TooLarge.class);
    }

    @Test
    void whenTheAnswerTricklesInThenTheDeadlineEndsTheWholeExchange() {
        assertThatThrownBy(() -> get("/trickle").send(new BoundedSender(DEADLINE, DEADLINE, 64 * 1024)))
                .isInstanceOf(IOException.class).hasMessage("timed out");
    }

    @Test
    void whenRedirectedThenTheRedirectIsTheAnswer() throws IOException {
        var answer = get("/moved").send(new BoundedSender(DEADLINE, DEADLINE, 64 * 1024));

        assertThat(answer.getStatusCode()).isEqualTo(302);
    }
}
