package dev.atrium.marketplace.control.runtime;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.platform.kv.KeyValueStore;

/**
 * The scoped, short-lived credentials an agent's run gets to call its declared dependencies through the invoke
 * gateway ({@code ATRIUM_INVOKE_TOKEN}). A token stands for the user whose call started the chain, the chain of agents
 * so far (outermost first) and the calling agent's declared dependencies with their version ranges; it is good for
 * the run's time limit plus a few seconds, for at most {@code maxCalls} calls, only on the invoke path, and is revoked
 * when the run ends. Only its SHA-256 is stored (in the key-value store, so every instance knows it); the token itself
 * exists in the run's environment only.
 */
@ApplicationScoped
public class DependencyTokens {

    public static final String PREFIX = "atd_";
    private static final Pattern SHAPE = Pattern.compile("atd_[A-Za-z0-9_-]{43}");
    private static final String KEY = "marketplace:dependency-token:";
    private static final String CALLS = "marketplace:dependency-calls:";
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * What a token grants. {@code chain}: the agents whose runs led here, outermost first, the caller last;
     * {@code parentRunId}: the run holding the token; {@code rootRunId}: the invocation whose price cap its calls
     * draw on.
     */
    public record Grant(long userId, List<UUID> chain, Map<String, String> dependencies, UUID parentRunId,
                        UUID rootRunId) {

        public Grant {
            chain = List.copyOf(chain);
            dependencies = Map.copyOf(dependencies);
        }

        /** The agent whose run holds this token. */
        public UUID caller() {
            return chain.get(chain.size() - 1);
        }
    }

    @Inject
    KeyValueStore store;

    /** A new token for the grant, valid for {@code ttl}. */
    public String mint(Grant grant, Duration ttl) {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        var chain = JSON.createArrayBuilder();
        grant.chain().forEach(id -> chain.add(id.toString()));
        var dependencies = JSON.createObjectBuilder();
        grant.dependencies().forEach(dependencies::add);
        store.set(KEY + hash(token), JSON.createObjectBuilder().add("user", grant.userId()).add("chain", chain)
                .add("dependencies", dependencies).add("parent", grant.parentRunId().toString())
                .add("root", grant.rootRunId().toString()).build().toString(), ttl);
        return token;
    }

    /** The grant of a live token; empty for anything else (malformed, unknown, expired, revoked). */
    public Optional<Grant> resolve(String token) {
        if (token == null || !SHAPE.matcher(token).matches()) {
            return Optional.empty();
        }
        return store.get(KEY + hash(token)).map(DependencyTokens::grant);
    }

    /** Counts one call made with the token; true while the run has calls left. */
    public boolean countCall(String token, int maxCalls, Duration ttl) {
        return store.increment(CALLS + hash(token), ttl) <= maxCalls;
    }

    public void revoke(String token) {
        store.delete(KEY + hash(token));
        store.delete(CALLS + hash(token));
    }

    private static Grant grant(String json) {
        try (var reader = JSON.createReader(new StringReader(json))) {
            JsonObject o = reader.readObject();
            var chain = new ArrayList<UUID>();
            o.getJsonArray("chain").forEach(v -> chain.add(UUID.fromString(((JsonString) v).getString())));
            var dependencies = new LinkedHashMap<String, String>();
            o.getJsonObject("dependencies").forEach((name, range) -> dependencies.put(name,
                    ((JsonString) range).getString()));
            return new Grant(o.getJsonNumber("user").longValueExact(), chain, dependencies,
                    UUID.fromString(o.getString("parent")), UUID.fromString(o.getString("root")));
        }
    }

    static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
