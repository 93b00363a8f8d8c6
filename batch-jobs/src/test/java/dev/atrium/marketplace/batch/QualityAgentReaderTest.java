package dev.atrium.marketplace.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** The reader's checkpoint: a restart from it reads every agent after the last one scored, and no other. */
class QualityAgentReaderTest {

    private final TreeSet<UUID> listed = new TreeSet<>();

    QualityAgentReaderTest() {
        IntStream.range(0, 1234).forEach(i -> listed.add(UUID.randomUUID()));
    }

    private QualityAgentReader reader() {
        return new QualityAgentReader((after, limit) -> {
            var tail = after == null ? listed : listed.tailSet(after, false);
            return tail.stream().limit(limit).toList();
        });
    }

    private static List<UUID> read(QualityAgentReader reader, int max) {
        var read = new ArrayList<UUID>();
        Object next;
        while (read.size() < max && (next = reader.readItem()) != null) {
            read.add((UUID) next);
        }
        return read;
    }

    @Test
    void whenReadToTheEndThenEveryListedAgentOnceInIdOrder() {
        var reader = reader();
        reader.open(null);

        assertThat(read(reader, Integer.MAX_VALUE)).containsExactlyElementsOf(listed);
        assertThat(reader.readItem()).isNull();
    }

    @Test
    void whenRestartedFromACheckpointThenItContinuesAfterTheLastAgentRead() {
        var first = reader();
        first.open(null);
        var before = read(first, 700);
        Serializable checkpoint = first.checkpointInfo();

        var restarted = reader();
        restarted.open(checkpoint);
        var after = read(restarted, Integer.MAX_VALUE);

        assertThat(checkpoint).isEqualTo(before.get(before.size() - 1).toString());
        var all = new ArrayList<>(before);
        all.addAll(after);
        assertThat(all).containsExactlyElementsOf(listed);
    }

    @Test
    void whenNothingWasReadThenNoCheckpointAndARestartStartsFromTheFirst() {
        var reader = reader();
        reader.open(null);

        assertThat(reader.checkpointInfo()).isNull();
        reader.open(reader.checkpointInfo());
        assertThat(reader.readItem()).isEqualTo(listed.first());
    }
}
