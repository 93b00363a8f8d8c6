package dev.atrium.platform.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.messaging.Messaging;

/** How the relay turns a batch of due events into messages: packed for a batch queue, one each otherwise. */
class OutboxPackingTest {

    private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");

    record Event(String destination, boolean broadcast, String payload) implements ApplicationEvent {
    }

    private static OutboxEvent event(String destination, boolean broadcast, String payload) {
        return new OutboxEvent(new Event(destination, broadcast, payload), NOW);
    }

    @Test
    void whenABatchQueuesEventsAreRelayedThenTheyShareMessagesUpToItsBatchSizeOneLineEach() {
        var events = new ArrayList<OutboxEvent>();
        for (int i = 0; i < 7; i++) {
            events.add(event("billing", false, "u" + i));
            events.add(event("mail", false, "m" + i));
        }

        var messages = OutboxRelay.messages(events, Map.of("billing", 3));

        var billing = messages.stream().filter(m -> m.destination().equals("billing")).toList();
        assertThat(billing).extracting(Messaging.Outgoing::body)
                .containsExactly("u0\nu1\nu2", "u3\nu4\nu5", "u6");
        // a pack's duplicate id names its first and last event and their number; a lone event keeps its own id
        assertThat(billing.get(0).duplicateId()).isEqualTo("pack:" + events.get(0).id() + ":" + events.get(4).id()
                + ":3");
        assertThat(billing.get(2).duplicateId()).isEqualTo(events.get(12).id().toString());
        // other queues: a message per event, in order, each with its event id
        assertThat(messages.stream().filter(m -> m.destination().equals("mail")))
                .extracting(Messaging.Outgoing::body).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6");
        // relaying the same rows again makes the same messages (the broker drops them as duplicates)
        assertThat(OutboxRelay.messages(events, Map.of("billing", 3))).isEqualTo(messages);
    }

    @Test
    void whenEventsAreHostileToPackingThenTheyTravelAlone() {
        var topic = event("billing", true, "t1");
        var broken = event("billing", false, "a\nb");
        var carriage = event("billing", false, "a\rb");
        var plain = event("billing", false, "p1");

        var messages = OutboxRelay.messages(List.of(topic, broken, carriage, plain), Map.of("billing", 500));

        assertThat(messages).extracting(Messaging.Outgoing::body).containsExactly("t1", "a\nb", "a\rb", "p1");
        assertThat(messages).extracting(Messaging.Outgoing::duplicateId).containsExactly(
                topic.id().toString(), broken.id().toString(), carriage.id().toString(), plain.id().toString());
        assertThat(OutboxRelay.messages(List.of(plain), Map.of("billing", 1))).extracting(
                Messaging.Outgoing::body).containsExactly("p1");
    }

    @Test
    void whenRandomBatchesArePackedThenEveryPayloadTravelsOnceInOrderPerQueue() {
        long seed = Long.getLong("atrium.fuzz.seed", 20261125L);
        int rounds = Integer.getInteger("atrium.fuzz.rounds", 500);
        var random = new Random(seed);
        var queues = List.of("billing", "tasks", "mail", "agents");
        for (int round = 0; round < rounds; round++) {
            var events = new ArrayList<OutboxEvent>();
            int n = random.nextInt(60);
            for (int i = 0; i < n; i++) {
                events.add(event(queues.get(random.nextInt(queues.size())), random.nextInt(10) == 0,
                        random.nextInt(20) == 0 ? "x\n" + i : "e" + i));
            }
            var packs = Map.of("billing", 1 + random.nextInt(8), "tasks", 1 + random.nextInt(3));

            var messages = OutboxRelay.messages(events, packs);

            for (var queue : queues) {
                for (boolean broadcast : new boolean[] {false, true}) {
                    var sent = events.stream().filter(e -> e.destination().equals(queue)
                            && e.broadcast() == broadcast).map(OutboxEvent::payload).toList();
                    var received = messages.stream().filter(m -> m.destination().equals(queue)
                                    && m.topic() == broadcast)
                            .flatMap(m -> m.duplicateId().startsWith("pack:") ? m.body().lines()
                                    : java.util.stream.Stream.of(m.body())).toList();
                    assertThat(received).as("seed %d round %d %s", seed, round, queue).isEqualTo(sent);
                }
            }
            assertThat(messages).allSatisfy(m -> {
                int lines = m.duplicateId().startsWith("pack:") ? (int) m.body().lines().count() : 1;
                assertThat(lines).isLessThanOrEqualTo(m.topic() ? 1 : packs.getOrDefault(m.destination(), 1));
            });
        }
    }
}
