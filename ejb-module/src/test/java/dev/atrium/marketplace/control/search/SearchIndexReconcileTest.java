package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** What a reconciliation finds between the database and the index, and changes arriving before the build. */
class SearchIndexReconcileTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final Instant T = Instant.parse("2026-11-24T10:00:00.123456Z");

    private static SearchIndex.Stamp stamp(UUID version, Instant at) {
        return new SearchIndex.Stamp(version, at);
    }

    @Test
    void whenTheIndexMissesStaleOrExtraAgentsThenEachIsNamedOnce() {
        UUID same = UUID.randomUUID();
        UUID missing = UUID.randomUUID();
        UUID newVersion = UUID.randomUUID();
        UUID changed = UUID.randomUUID();
        UUID extra = UUID.randomUUID();
        UUID v = UUID.randomUUID();
        var database = Map.of(same, stamp(v, T), missing, stamp(v, T), newVersion, stamp(UUID.randomUUID(), T),
                changed, stamp(v, T.plusSeconds(1)));
        var indexed = Map.of(same, stamp(v, T), newVersion, stamp(v, T), changed, stamp(v, T), extra, stamp(v, T));

        var diff = SearchIndex.diff(database, indexed);

        assertThat(diff.apply()).containsExactlyInAnyOrder(missing, newVersion, changed);
        assertThat(diff.remove()).containsExactly(extra);
        assertThat(SearchIndex.diff(indexed, indexed).empty()).isTrue();
    }

    @Test
    void whenTimesDifferBelowAMillisecondThenTheSameStamp() {
        UUID v = UUID.randomUUID();
        // the database keeps microseconds, the entity in memory may hold more
        assertThat(stamp(v, T)).isEqualTo(stamp(v, Instant.parse("2026-11-24T10:00:00.123999999Z")));
        assertThat(stamp(v, T)).isNotEqualTo(stamp(v, Instant.parse("2026-11-24T10:00:00.124Z")));
    }

    @Test
    void whenChangesArriveBeforeTheBuildThenTheyWaitAndAreHandedOverOnce() {
        var index = new SearchIndex();
        UUID early = UUID.randomUUID();

        assertThat(index.deferIfBuilding(early)).isTrue();
        assertThat(index.deferIfBuilding(early)).isTrue();
        assertThat(index.markBuilt()).containsExactly(early);
        assertThat(index.deferIfBuilding(UUID.randomUUID())).isFalse();
        assertThat(index.markBuilt()).isEmpty();
    }

    @Test
    void whenStatesAreRandomThenApplyingTheDiffMakesTheIndexEqualTheDatabase() {
        var random = new Random(SEED);
        UUID[] ids = new UUID[50];
        UUID[] versions = new UUID[3];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new UUID(0, i);
        }
        for (int i = 0; i < versions.length; i++) {
            versions[i] = new UUID(1, i);
        }
        for (int round = 0; round < 2_000; round++) {
            var database = new HashMap<UUID, SearchIndex.Stamp>();
            var indexed = new HashMap<UUID, SearchIndex.Stamp>();
            for (UUID id : ids) {
                if (random.nextBoolean()) {
                    database.put(id, stamp(versions[random.nextInt(3)], T.plusMillis(random.nextInt(3))));
                }
                if (random.nextBoolean()) {
                    indexed.put(id, stamp(versions[random.nextInt(3)], T.plusMillis(random.nextInt(3))));
                }
            }
            var diff = SearchIndex.diff(database, indexed);
            diff.remove().forEach(indexed::remove);
            diff.apply().forEach(id -> indexed.put(id, database.get(id)));
            assertThat(indexed).as("seed %d round %d", SEED, round).isEqualTo(database);
            assertThat(Set.copyOf(diff.apply())).doesNotContainAnyElementsOf(diff.remove());
        }
    }
}
