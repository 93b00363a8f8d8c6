package dev.atrium.identity.control.login;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * Session mode: sessions live in the key-value store for 86400 s under a random UUID (version 4), a new one at
 * every login. A session may be bound to the client address and User-Agent it was created from
 * ({@code atrium.session.bind-ip}, {@code atrium.session.bind-user-agent}); a request from elsewhere does not get it.
 */
@ApplicationScoped
public class SessionService {

    public static final Duration LIFETIME = Duration.ofSeconds(86400);

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    public Session create(long userId, RequestOrigin origin) {
        var session = new Session(UUID.randomUUID().toString(), userId, clock.instant(), origin.ipAddress(),
                origin.userAgent());
        String value = JSON.createObjectBuilder()
                .add("user_id", userId)
                .add("created_at", session.createdAt().toString())
                .add("ip", session.ipAddress())
                .add("ua", session.userAgent())
                .build().toString();
        store.set(key(session.id()), value, LIFETIME);
        return session;
    }

    /** The live session with this id, if the request may use it. */
    public Optional<Session> find(String id, RequestOrigin origin) {
        if (id == null || !id.matches("[0-9a-f-]{36}")) {
            return Optional.empty();
        }
        return store.get(key(id)).map(value -> {
            try (var reader = JSON.createReader(new StringReader(value))) {
                JsonObject o = reader.readObject();
                return new Session(id, o.getJsonNumber("user_id").longValue(),
                        Instant.parse(o.getString("created_at")), o.getString("ip", ""), o.getString("ua", ""));
            }
        }).filter(s -> clock.instant().isBefore(s.createdAt().plus(LIFETIME)))
                .filter(s -> !config.sessionBindIp || s.ipAddress().equals(origin.ipAddress()))
                .filter(s -> !config.sessionBindUserAgent || s.userAgent().equals(origin.userAgent()));
    }

    public void destroy(String id) {
        if (id != null) {
            store.delete(key(id));
        }
    }

    private static String key(String id) {
        return "session:" + id;
    }
}
