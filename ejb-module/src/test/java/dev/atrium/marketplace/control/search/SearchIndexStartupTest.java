package dev.atrium.marketplace.control.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.AgentRepositories;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.platform.persistence.StatementCounter;

/**
 * The start of an instance after the embedding model changed (the float all-MiniLM-L6-v2 before, its int8 twin now):
 * versions whose vectors came from the previous model are embedded again by the current one and saved, versions
 * already embedded by it are left alone, and the index holds every active agent. The model is a stand-in that counts
 * what it embeds; the database is real (H2 in PostgreSQL mode, or {@code -Datrium.test.postgres-url}).
 */
class SearchIndexStartupTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final String PREVIOUS = "all-minilm-l6-v2";

    /** What a version was stored with: the same direction for all, far from every vector the stand-in gives. */
    private static final float[] STORED = new float[MiniLmEmbedder.DIMENSION];

    static {
        Arrays.fill(STORED, (float) (1 / Math.sqrt(MiniLmEmbedder.DIMENSION)));
    }

    private static StatementCounter database;

    private final List<String> embedded = new ArrayList<>();

    /** The current model: each text's vector is a unit vector picked by the text's hash, so results are exact. */
    private final Embeddings current = new Embeddings() {
        @Override
        public TextEmbedder embedder() {
            return new TextEmbedder() {
                @Override
                public float[] embed(String text) {
                    embedded.add(text);
                    return unit(text);
                }

                @Override
                public String modelId() {
                    return MiniLmEmbedder.MODEL_ID;
                }

                @Override
                public int dimension() {
                    return MiniLmEmbedder.DIMENSION;
                }
            };
        }
    };

    @BeforeAll
    static void migrate() {
        database = StatementCounter.database("search-start");
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static float[] unit(String text) {
        float[] v = new float[MiniLmEmbedder.DIMENSION];
        v[Math.floorMod(text.hashCode(), v.length)] = 1f;
        return v;
    }

    private static void run(Consumer<EntityManager> work) {
        database.inTransaction(em -> {
            work.accept(em);
            return null;
        });
    }

    /** An active agent whose serving version was embedded by {@code model} (its card and its one capability). */
    private UUID listed(String name, String model) {
        UUID id = UUID.randomUUID();
        var card = new AgentCard("{}", name, "Agent " + name, SemanticVersion.parse("1.0.0"), "Translates " + name,
                "tools", List.of(), List.of("translate-" + name), "{}", "{}", null, null, List.of("python3", "main.py"),
                256, 30, false, 3.0, null, 0);
        run(em -> {
            Agent agent = Agent.submitted(id, 7, card, SmokeStatus.NOT_RUN, T0);
            em.persist(agent);
            em.flush();
            var version = new AgentVersion(id, 7, card, null, SmokeStatus.NOT_RUN, null, null, null,
                    Duration.ofHours(24), T0);
            version.embed(STORED, model);
            version.embedCapabilities(List.of(STORED));
            em.persist(version);
            em.flush();
            version.approve(7, null, T0);
            agent.approve(version, card, T0);
        });
        return id;
    }

    private SearchIndex start() {
        var index = new SearchIndex();
        index.embeddings = current;
        run(em -> {
            var agents = AgentRepositories.of(em);
            var startup = new SearchIndexStartup();
            startup.em = em;
            startup.embeddings = current;
            startup.index = index;
            startup.agents = agents;
            startup.build();
        });
        return index;
    }

    private static Agent agent(UUID id) {
        return database.inTransaction(em -> em.find(Agent.class, id));
    }

    private static AgentVersion serving(UUID id) {
        return database.inTransaction(em -> em.find(AgentVersion.class, em.find(Agent.class, id).currentVersionId()));
    }

    @Test
    void whenVectorsCameFromThePreviousModelThenTheStartEmbedsThemAgainAndLeavesCurrentOnesAlone() {
        UUID old = listed("old-" + UUID.randomUUID(), PREVIOUS);
        UUID fresh = listed("fresh-" + UUID.randomUUID(), MiniLmEmbedder.MODEL_ID);

        SearchIndex index = start();

        AgentVersion again = serving(old);
        assertThat(again.embeddingModel()).isEqualTo(MiniLmEmbedder.MODEL_ID);
        String text = SearchIndex.text(agent(old));
        assertThat(again.embedding()).containsExactly(unit(text));
        assertThat(again.capabilityEmbeddings(List.of("translate-" + again.name()), MiniLmEmbedder.MODEL_ID))
                .hasValueSatisfying(vectors -> assertThat(vectors).hasSize(1));
        assertThat(serving(fresh).embedding()).containsExactly(STORED);
        assertThat(embedded).hasSize(2).contains(text).noneMatch(t -> t.contains("fresh-"));
        assertThat(index.index().vector(unit(text), null, 1).hits())
                .extracting(AgentIndex.Hit::id).containsExactly(old);
        assertThat(index.stamps()).containsKeys(old, fresh);
    }

    @Test
    void whenStartedAgainThenNothingIsEmbeddedTwice() {
        UUID old = listed("twice-" + UUID.randomUUID(), PREVIOUS);
        start();
        embedded.clear();

        start();

        assertThat(embedded).isEmpty();
        assertThat(serving(old).embeddingModel()).isEqualTo(MiniLmEmbedder.MODEL_ID);
    }

}
