package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What a delivery means for its handler, on both runtimes: a batch, a body, or bodies to put back one by one. */
class DeliveriesTest {

    /** Records what it is handed. */
    static final class Recording implements MessageHandler {
        final int batchSize;
        final List<String> calls = new ArrayList<>();

        Recording(int batchSize) {
            this.batchSize = batchSize;
        }

        @Override
        public String queue() {
            return "q";
        }

        @Override
        public int batchSize() {
            return batchSize;
        }

        @Override
        public void onMessage(String body, int deliveryCount) {
            calls.add("one " + body + " #" + deliveryCount);
        }

        @Override
        public void onMessages(List<String> bodies) {
            calls.add("batch " + bodies);
        }
    }

    @Test
    void whenABatchQueuesPackedMessageComesFirstThenItsBodiesAreOneBatch() throws Exception {
        var handler = new Recording(500);
        assertThat(Deliveries.unpacks(handler, "a\nb\nc", 1)).isFalse();
        Deliveries.deliver(handler, "a\nb\nc", 1);
        Deliveries.deliver(handler, "d", 1);
        assertThat(handler.calls).containsExactly("batch [a, b, c]", "batch [d]");
    }

    @Test
    void whenABatchQueuesPackedMessageComesAgainThenItIsPutBackInsteadOfHandled() {
        var handler = new Recording(500);
        assertThat(Deliveries.unpacks(handler, "a\nb", 2)).isTrue();
        assertThat(Deliveries.unpacks(handler, "a", 2)).isFalse();
        assertThat(Deliveries.unpacks(handler, null, 3)).isFalse();
    }

    @Test
    void whenASingleBodyComesAgainThenItsHandlerGetsItWithItsDeliveryCount() throws Exception {
        var handler = new Recording(500);
        Deliveries.deliver(handler, "a", 2);
        assertThat(handler.calls).containsExactly("one a #2");
    }

    @Test
    void whenAQueueTakesNoBatchesThenEveryBodyIsHandedOverWholeEvenWithLineBreaks() throws Exception {
        var handler = new Recording(1);
        assertThat(Deliveries.unpacks(handler, "{\n}", 2)).isFalse();
        Deliveries.deliver(handler, "{\n}", 1);
        Deliveries.deliver(handler, null, 3);
        assertThat(handler.calls).containsExactly("one {\n} #1", "one null #3");
    }
}
