package dev.atrium.ai.control.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.concurrent.ManagedThreadFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The OpenAI-compatible provider against a local server: the outbound connection limit of spec 02. */
class OpenAiProviderTest {

    private static final List<ChatTurn> HELLO = List.of(new ChatTurn("user", "hello"));

    private HttpServer server;
    private final CountDownLatch release = new CountDownLatch(1);
    private final Semaphore arrived = new Semaphore(0);
    private OpenAiProvider provider;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", this::answer);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        provider = new OpenAiProvider();
        provider.config = ConfigDefaults.of(AiConfig.class);
        provider.config.llmBaseUrl = Optional.of("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
        provider.config.llmApiKey = Optional.empty();
        provider.threads = new ManagedThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
                var thread = new Thread(r);
                thread.setDaemon(true);
                return thread;
            }

            @Override
            public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
                throw new UnsupportedOperationException();
            }
        };
        provider.init();
    }

    @AfterEach
    void stop() {
        release.countDown();
        provider.stop();
        server.stop(0);
    }

    /** Holds every call until the test releases them, then answers in one piece. */
    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            arrived.release();
            release.await(10, TimeUnit.SECONDS);
            byte[] body = ("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}],"
                    + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void whenEveryOutboundConnectionIsBusyThenTheNextCallWaitsAndIsRefusedWith503() throws Exception {
        provider.connections = new Semaphore(2, true);
        provider.connectionWait = Duration.ofMillis(300);
        var first = CompletableFuture.supplyAsync(() -> provider.complete("m", HELLO));
        var second = CompletableFuture.supplyAsync(() -> provider.complete("m", HELLO));
        assertThat(arrived.tryAcquire(2, 10, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> provider.complete("m", HELLO)).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));

        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS).content()).isEqualTo("hi");
        assertThat(second.get(10, TimeUnit.SECONDS).content()).isEqualTo("hi");
        assertThat(provider.connections.availablePermits()).isEqualTo(2);
        assertThat(provider.complete("m", HELLO).content()).isEqualTo("hi");
    }

    @Test
    void whenAStreamEndsOrFailsThenItsConnectionIsFreeAgain() {
        provider.connections = new Semaphore(1, true);
        release.countDown();

        provider.stream("m", HELLO, delta -> { }, () -> false);
        server.removeContext("/v1/chat/completions");
        assertThatThrownBy(() -> provider.stream("m", HELLO, delta -> { }, () -> false))
                .isInstanceOf(BusinessException.class);

        assertThat(provider.connections.availablePermits()).isEqualTo(1);
    }

    @Test
    void whenTheLimitsAreReadThenTheyAreSpecTwosOutboundOnes() {
        // the launchers pass the keep-alive limit as a JVM option: ServerConfigurationTest
        assertThat(OpenAiProvider.KEEP_ALIVE_CONNECTIONS).isEqualTo(20);
        assertThat(OpenAiProvider.MAX_CONNECTIONS).isEqualTo(100);
    }
}
