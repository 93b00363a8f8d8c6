package dev.atrium.identity.control.oauth;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;

import dev.atrium.identity.control.Hashes;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * Authorization requests in flight, kept in the shared key-value store so that the callback may reach any instance.
 * Each state is usable once and for 10 minutes, judged by the application clock; the store's own expiry only
 * cleans up. Only a hash of the state names the entry, so the store never holds a value that would pass the check.
 */
@ApplicationScoped
public class AuthorizationStates {

    public static final Duration LIFETIME = Duration.ofMinutes(10);
    static final int STATE_MAX = 200;

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    public AuthorizationStates() {
    }

    AuthorizationStates(KeyValueStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A fresh state, verifier and nonce for one authorization request to {@code provider}. */
    public AuthorizationState issue(String provider, String redirectUri, Long linkUserId) {
        var state = new AuthorizationState(Hashes.randomToken(32), provider, Pkce.newVerifier(),
                Hashes.randomToken(32), redirectUri, linkUserId, clock.instant());
        var value = JSON.createObjectBuilder()
                .add("provider", provider)
                .add("verifier", state.codeVerifier())
                .add("nonce", state.nonce())
                .add("redirect_uri", redirectUri)
                .add("issued_at", state.issuedAt().toString());
        if (linkUserId != null) {
            value.add("link_user_id", linkUserId);
        }
        store.set(key(state.state()), value.build().toString(), LIFETIME);
        return state;
    }

    /**
     * Takes the state out of the store: present only the first time, within its lifetime, and for the provider it
     * was issued for. A state presented to the wrong provider is spent all the same.
     */
    public Optional<AuthorizationState> consume(String provider, String state) {
        if (state == null || state.isBlank() || state.length() > STATE_MAX) {
            return Optional.empty();
        }
        return store.getAndDelete(key(state)).flatMap(value -> parse(state, value))
                .filter(s -> s.provider().equals(provider))
                .filter(s -> clock.instant().isBefore(s.issuedAt().plus(LIFETIME)));
    }

    private static Optional<AuthorizationState> parse(String state, String value) {
        try (var reader = JSON.createReader(new StringReader(value))) {
            JsonObject o = reader.readObject();
            Long link = o.containsKey("link_user_id") ? o.getJsonNumber("link_user_id").longValue() : null;
            return Optional.of(new AuthorizationState(state, o.getString("provider"), o.getString("verifier"),
                    o.getString("nonce"), o.getString("redirect_uri"), link, Instant.parse(o.getString("issued_at"))));
        } catch (JsonException | ClassCastException | NullPointerException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String key(String state) {
        return "oauth-state:" + Hashes.sha256(state);
    }
}
