package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The index on hand-made three-dimensional vectors, where the right order is obvious. */
class AgentIndexTest {

    private final UUID north = UUID.randomUUID();
    private final UUID east = UUID.randomUUID();
    private final UUID northEast = UUID.randomUUID();

    private AgentIndex index() {
        var index = new AgentIndex(3);
        index.put(new AgentIndex.Entry(north, "maps", List.of("go-north"), "walks to the north pole",
                new float[] {0, 1, 0}));
        index.put(new AgentIndex.Entry(east, "travel", List.of("go-east"), "sails east to the islands",
                new float[] {1, 0, 0}));
        index.put(new AgentIndex.Entry(northEast, "maps", List.of("go-north", "go-east"), "hikes north east",
                new float[] {1, 1, 0}));
        return index;
    }

    @Test
    void whenSearchingThenNearestFirstWithOneMinusCosineAsDistance() {
        var page = index().vector(new float[] {0, 1, 0}, null, 10);

        assertThat(page.hits()).extracting(AgentIndex.Hit::id).containsExactly(north, northEast, east);
        assertThat(page.hits().get(0).distance()).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(page.hits().get(1).distance()).isCloseTo(1 - Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-5));
        assertThat(page.hits().get(2).distance()).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-5));
        assertThat(page.total()).isEqualTo(3);
    }

    @Test
    void whenLimitedThenOnlyTheFirstAreAnsweredButTotalCountsAll() {
        var page = index().vector(new float[] {0, 1, 0}, null, 1);

        assertThat(page.hits()).extracting(AgentIndex.Hit::id).containsExactly(north);
        assertThat(page.total()).isEqualTo(3);
    }

    @Test
    void whenACategoryIsGivenThenItIsAnEqualityFilter() {
        var page = index().vector(new float[] {1, 0, 0}, "maps", 10);

        assertThat(page.hits()).extracting(AgentIndex.Hit::id).containsExactly(northEast, north);
        assertThat(page.total()).isEqualTo(2);
        assertThat(index().vector(new float[] {1, 0, 0}, "nothing-here", 10).hits()).isEmpty();
    }

    @Test
    void whenRemovedOrReplacedThenSearchFollows() {
        var index = index();
        index.remove(north);
        index.put(new AgentIndex.Entry(east, "travel", List.of("go-north"), "now goes north",
                new float[] {0, 1, 0}));

        var page = index.vector(new float[] {0, 1, 0}, null, 10);

        assertThat(page.hits()).extracting(AgentIndex.Hit::id).containsExactly(east, northEast);
        assertThat(index.size()).isEqualTo(2);
        assertThat(index.contains(north)).isFalse();
    }

    @Test
    void whenHybridThenKeywordMatchesLiftAnAgentByReciprocalRank() {
        var index = index();

        // by vector alone "east" is last for a northern query; the keyword "sails" brings it up
        var page = index.hybrid(new float[] {0, 1, 0}, "sails islands", null, 10);

        assertThat(page.hits().get(0).id()).isEqualTo(east);
        assertThat(page.hits().get(0).score()).isCloseTo(1.0 / 63 + 1.0 / 61, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(page.hits()).extracting(AgentIndex.Hit::distance).allSatisfy(d -> assertThat(d).isBetween(0.0, 2.0));
    }

    @Test
    void whenAVectorHasTheWrongDimensionThenItIsRefused() {
        assertThatThrownBy(() -> index().vector(new float[] {1, 0}, null, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

}
