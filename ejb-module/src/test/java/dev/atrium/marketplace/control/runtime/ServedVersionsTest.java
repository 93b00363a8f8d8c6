package dev.atrium.marketplace.control.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.submission.CardValidation;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.marketplace.entity.StoredBundle;
import dev.atrium.marketplace.entity.checks.SmokeStatus;
import dev.atrium.platform.http.JsonInput;

/** The gateway's kept versions: read once per version id, parsed once, and a version not found is never kept. */
class ServedVersionsTest {

    private static final String CARD = """
            {"name": "echo", "input_schema": {"type": "object", "required": ["text"],
              "properties": {"text": {"type": "string"}}},
             "pricing": {"model": "freemium", "price_usd": 0.5, "free_quota": 3},
             "dependencies": {"agents": [{"name": "helper", "version": "^1.0"}]}}""";

    private final List<UUID> reads = new ArrayList<>();
    private final Map<UUID, AgentVersion> stored = new HashMap<>();

    private ServedVersions served() {
        var served = new ServedVersions();
        served.agents = new AgentRepository() {
            @Override
            public Optional<AgentVersion> version(UUID versionId) {
                reads.add(versionId);
                return Optional.ofNullable(stored.get(versionId));
            }
        };
        served.cards = new CardValidation();
        served.cards.compile();
        return served;
    }

    private AgentVersion version(String json) {
        var card = new AgentCard(json, "echo", "Echo", SemanticVersion.parse("1.2.0"), "Echoes", "tools", List.of(),
                List.of("echo"), "{}", "{}", null, null, List.of("python3", "main.py"), 256, 30, false, 3.0, null, 0);
        var version = new AgentVersion(UUID.randomUUID(), 7, card, new StoredBundle("bundles/echo", 10, "tar.gz"),
                SmokeStatus.NOT_RUN, null, null, null, Duration.ofHours(24), Instant.parse("2026-11-23T10:00:00Z"));
        stored.put(version.id(), version);
        return version;
    }

    @Test
    void whenAVersionIsServedTwiceThenItIsReadOnceAndParsedAsItsCardSays() {
        var served = served();
        var version = version(CARD);

        var first = served.served(version.id()).orElseThrow();
        var second = served.served(version.id()).orElseThrow();

        assertThat(reads).containsExactly(version.id());
        assertThat(second).isSameAs(first);
        assertThat(first.version().id()).isEqualTo(version.id());
        assertThat(first.version().cardJson()).isEqualTo(CARD);
        assertThat(first.version().bundleKey()).isEqualTo("bundles/echo");
        assertThat(first.version().version()).isEqualTo("1.2.0");
        assertThat(first.pricing().model()).isEqualTo(Pricing.Model.FREEMIUM);
        assertThat(first.pricing().hasFreeSlots()).isTrue();
        assertThat(first.dependencies()).containsExactly(Map.entry("helper", "^1.0"));
        assertThat(InputCheck.problems(JsonInput.read("{}"), first.inputSchema(), served.cards.validator()))
                .hasValueSatisfying(text -> assertThat(text).contains("/text"));
    }

    @Test
    void whenTheCardDeclaresNoInputSchemaThenAnyObjectPasses() {
        var served = served();
        var version = version("{\"name\": \"echo\"}");

        var kept = served.served(version.id()).orElseThrow();

        assertThat(kept.inputSchema()).isEmpty();
        assertThat(kept.pricing()).isEqualTo(Pricing.FREE);
        assertThat(InputCheck.problems(JsonInput.read("{\"any\": 1}"), kept.inputSchema(), served.cards.validator()))
                .isEmpty();
    }

    @Test
    void whenAVersionIsNotFoundThenNothingIsKeptAndTheNextCallAsksAgain() {
        var served = served();
        UUID missing = UUID.randomUUID();

        assertThat(served.served(missing)).isEmpty();
        assertThat(served.served(missing)).isEmpty();
        assertThat(served.served(null)).isEmpty();

        assertThat(reads).containsExactly(missing, missing);
    }
}
