package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.Test;

/**
 * The application connected over TCP to a broker it did not start. Here that broker runs in the test JVM,
 * configured as a production broker must be: the same address settings as the embedded one.
 */
class RemoteBrokerMessagingTest extends MessagingContract {

    private EmbeddedActiveMQ remote;
    private String url;

    @Override
    BrokerConnection connect(Path directory) throws Exception {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        remote = new EmbeddedActiveMQ().setConfiguration(BrokerConnection.brokerConfiguration(directory)
                .addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port));
        remote.start();
        url = "tcp://127.0.0.1:" + port;
        return BrokerConnection.remote(url);
    }

    @Override
    Optional<String> url() {
        return Optional.of(url);
    }

    @Override
    void stopBroker() throws Exception {
        remote.stop();
    }

    @Test
    void whenConnectedToRemoteBrokerThenNoBrokerIsEmbedded() {
        assertThat(broker.isEmbedded()).isFalse();
    }

    @Test
    void whenBrokerIsGoneThenClosingDoesNotWaitForIt() throws Exception {
        broker.send("gone", "before");

        remote.stop();

        // a polite close would wait for the reconnecting client, 30 s per call (about 100 s here)
        assertTimeoutPreemptively(Duration.ofSeconds(20), broker::close);
    }

    @Test
    void whenNoBrokerListensThenConnectingFails() throws Exception {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        assertThatThrownBy(() -> BrokerConnection.remote("tcp://127.0.0.1:" + port + "?password=secret"))
                .isInstanceOf(MessagingException.class);
    }

    @Test
    void whenUrlCarriesParametersThenLoggedFormHasNone() {
        assertThat(BrokerConnection.withoutParameters("tcp://mq:61616?user=app&password=secret"))
                .isEqualTo("tcp://mq:61616");
    }
}
