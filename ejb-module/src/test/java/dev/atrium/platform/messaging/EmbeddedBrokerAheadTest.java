package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two brokers on one journal would wait for its lock forever: the timeout turns that into a failure. */
@Timeout(120)
class EmbeddedBrokerAheadTest {

    @TempDir
    Path data;

    private final EmbeddedBrokerAhead ahead = new EmbeddedBrokerAhead();
    private BrokerConnection broker;

    @AfterEach
    void close() {
        ahead.discard();
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void whenTheConfiguredDirectoryIsTheOneStartedAheadThenThatBrokerIsHandedOut() {
        ahead.startAhead(Optional.of(data.toString()), Optional.empty());

        broker = ahead.embedded(EmbeddedBrokerAhead.directory(data.toString()));

        assertThat(broker.isEmbedded()).isTrue();
        assertThat(broker.connected()).isTrue();
        assertThat(Files.isDirectory(data.resolve("broker"))).as("the journal where configured").isTrue();
    }

    @Test
    void whenAnotherDirectoryIsConfiguredThenTheBrokerStartedAheadStopsAndOneStartsThere(@TempDir Path other) {
        ahead.startAhead(Optional.of(data.toString()), Optional.empty());

        broker = ahead.embedded(EmbeddedBrokerAhead.directory(other.toString()));

        assertThat(broker.connected()).isTrue();
        assertThat(Files.isDirectory(other.resolve("broker"))).isTrue();
    }

    @Test
    void whenARemoteBrokerIsConfiguredThenNoBrokerStartsAhead() {
        ahead.startAhead(Optional.of(data.toString()), Optional.of(" tcp://broker.internal:61616 "));

        ahead.discard();

        assertThat(data.resolve("broker")).doesNotExist();
    }

    @Test
    void whenTheApplicationsConfigurationIsNotVisibleYetThenNoBrokerStartsAhead() {
        ahead.startAhead(Optional.empty(), Optional.empty());

        broker = ahead.embedded(EmbeddedBrokerAhead.directory(data.toString()));

        assertThat(broker.connected()).as("started when asked").isTrue();
    }

    @Test
    void whenARemoteBrokerTurnsOutConfiguredThenTheBrokerStartedAheadIsStopped() {
        ahead.startAhead(Optional.of(data.toString()), Optional.empty());

        ahead.discard();

        broker = ahead.embedded(EmbeddedBrokerAhead.directory(data.toString()));
        assertThat(broker.connected()).as("its journal and in-VM address free again").isTrue();
    }

    @Test
    void whenCdiShutsDownBeforeTheBrokerWasTakenThenItStops() {
        ahead.startAhead(Optional.of(data.toString()), Optional.empty());

        ahead.end(null);

        broker = ahead.embedded(EmbeddedBrokerAhead.directory(data.toString()));
        assertThat(broker.connected()).isTrue();
    }

    @Test
    void whenTheBrokerUrlIsBlankThenItCountsAsUnset() {
        assertThat(EmbeddedBrokerAhead.remote(Optional.of("  "))).isFalse();
        assertThat(EmbeddedBrokerAhead.remote(Optional.empty())).isFalse();
        assertThat(EmbeddedBrokerAhead.remote(Optional.of("tcp://b:61616"))).isTrue();
    }
}
