package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class EmbeddedBrokerMessagingTest extends MessagingContract {

    @Override
    BrokerConnection connect(Path directory) {
        return BrokerConnection.embedded(directory);
    }

    @Override
    Optional<String> url() {
        return Optional.empty();
    }

    @Test
    void whenBrokerRestartsThenQueuedMessageIsStillThere() throws Exception {
        broker.send("kept", "survivor");
        broker.close();

        broker = BrokerConnection.embedded(directory);
        var handler = new Recorder("kept");
        consume(handler);

        assertThat(handler.next().body()).isEqualTo("survivor");
        assertThat(broker.isEmbedded()).isTrue();
    }
}
