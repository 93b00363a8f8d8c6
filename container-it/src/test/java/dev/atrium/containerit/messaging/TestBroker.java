package dev.atrium.containerit.messaging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;

import dev.atrium.platform.messaging.BrokerConnection;

/**
 * The product's embedded broker ({@link BrokerConnection#embedded}, at {@code vm://0} with its address settings),
 * started with the deployment as the product starts it; the message-driven beans' activations wait for it.
 */
@Startup
@Singleton
public class TestBroker {

    private BrokerConnection broker;

    @PostConstruct
    void start() {
        try {
            broker = BrokerConnection.embedded(Files.createTempDirectory("atrium-arq-broker"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void send(String queue, String body) {
        broker.send(queue, body);
    }

    public long depth(String queue) {
        return broker.depth(queue, 100);
    }

    @PreDestroy
    void stop() {
        broker.close();
    }
}
