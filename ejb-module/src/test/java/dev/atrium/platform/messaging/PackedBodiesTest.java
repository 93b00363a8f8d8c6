package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** How a consumer reads the bodies of a message, packed by the outbox relay or not, whatever the queue holds. */
class PackedBodiesTest {

    @Test
    void whenAMessageBodyIsOddThenItIsReadAsOneBodyOrItsNonBlankLines() {
        assertThat(Deliveries.lines(null)).containsExactly((String) null);
        assertThat(Deliveries.lines("")).containsExactly("");
        assertThat(Deliveries.lines("  ")).containsExactly("  ");
        assertThat(Deliveries.lines("a")).containsExactly("a");
        assertThat(Deliveries.lines("a\r")).containsExactly("a\r");
        assertThat(Deliveries.lines("a\n")).containsExactly("a");
        assertThat(Deliveries.lines("\n\n")).isEmpty();
        assertThat(Deliveries.lines("a\r\nb")).containsExactly("a", "b");
        assertThat(Deliveries.lines("a\n \n\tb\n")).containsExactly("a", "\tb");
        assertThat(Deliveries.packed(null)).isFalse();
        assertThat(Deliveries.packed("a\nb")).isTrue();
    }

    @Test
    void whenIdsArePackedOneALineThenTheConsumerReadsBackExactlyThem() {
        long seed = Long.getLong("atrium.fuzz.seed", 20261125L);
        int rounds = Integer.getInteger("atrium.fuzz.rounds", 2_000);
        var random = new Random(seed);
        for (int round = 0; round < rounds; round++) {
            var ids = new ArrayList<String>();
            int n = 2 + random.nextInt(40);
            for (int i = 0; i < n; i++) {
                var chars = new char[1 + random.nextInt(40)];
                for (int c = 0; c < chars.length; c++) {
                    // anything printable but line breaks, as a payload the relay packs
                    chars[c] = (char) (33 + random.nextInt(94));
                }
                ids.add(new String(chars));
            }
            assertThat(Deliveries.lines(String.join("\n", ids))).as("seed %d round %d", seed, round)
                    .isEqualTo(ids);
        }
    }
}
