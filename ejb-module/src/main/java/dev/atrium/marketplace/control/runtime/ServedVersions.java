package dev.atrium.marketplace.control.runtime;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import com.networknt.schema.Schema;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.submission.CardValidation;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.http.JsonInput;

/**
 * What the invoke gateway needs of an agent version, read and parsed once per instance: the card's input schema
 * compiled, its pricing and its declared dependencies. Nothing kept here can go stale, so nothing invalidates it: a
 * version's card, bundle and number are set when it is submitted and never change, and whether the agent is listed,
 * its trust and which version serves are read from the agent's row on every call (a takedown, a trust change or a
 * new version takes effect on the next call, on every instance).
 */
@ApplicationScoped
public class ServedVersions {

    /** At most this many versions; a full table starts afresh. */
    static final int MAX_ENTRIES = 1_000;

    /**
     * A version as the gateway serves it: {@code version} a copy with its immutable fields only
     * ({@link AgentVersion#servingCopy}), {@code inputSchema} empty when the card declares none.
     */
    public record Served(AgentVersion version, Optional<Schema> inputSchema, Pricing pricing,
                         Map<String, String> dependencies) {
    }

    @EJB
    AgentRepository agents;

    @Inject
    CardValidation cards;

    private final Map<UUID, Served> kept = new ConcurrentHashMap<>();

    public Optional<Served> served(UUID versionId) {
        if (versionId == null) {
            return Optional.empty();
        }
        Served served = kept.get(versionId);
        if (served != null) {
            return Optional.of(served);
        }
        return agents.version(versionId).map(this::keep);
    }

    public Optional<AgentVersion> version(UUID versionId) {
        return served(versionId).map(Served::version);
    }

    private Served keep(AgentVersion version) {
        String card = version.cardJson();
        JsonObject object = JsonInput.read(card) instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        Optional<Schema> schema = object.get("input_schema") instanceof JsonObject input
                ? Optional.of(cards.validator().compile(input.toString())) : Optional.empty();
        // the card's pricing object as the stored card holds it (CardValidator.stored), without reading it twice
        Pricing pricing = Pricing.of(object.get("pricing") instanceof JsonObject p ? p.toString() : null);
        var served = new Served(version.servingCopy(), schema, pricing, AgentRunner.dependencies(card));
        if (kept.size() >= MAX_ENTRIES) {
            kept.clear();
        }
        kept.put(version.id(), served);
        return served;
    }
}
