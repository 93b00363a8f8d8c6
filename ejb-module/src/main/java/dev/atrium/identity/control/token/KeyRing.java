package dev.atrium.identity.control.token;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.entity.SigningKey;

/**
 * The signing keys in use: for HS256 (access, refresh, verification tokens) and RS256 (SSO tokens) one current
 * key that signs, and previous keys that still verify until the tokens they signed have expired. Keys live in the
 * database; each instance keeps a snapshot, reloaded every 30 s and whenever a token names a key it does not know.
 */
@ApplicationScoped
public class KeyRing {

    private static final Logger LOG = Logger.getLogger(KeyRing.class.getName());
    public static final String HS256 = "HS256";
    public static final String RS256 = "RS256";
    private static final Duration SNAPSHOT_AGE = Duration.ofSeconds(30);
    private static final Duration MISS_RELOAD_SPACING = Duration.ofSeconds(1);

    /** A symmetric key and its identifier. */
    public record HmacKey(String kid, byte[] secret) {
    }

    private record Snapshot(HmacKey currentHmac, Map<String, HmacKey> hmac, RSAKey currentRsa,
                            Map<String, RSAKey> rsa, List<SigningKey> keys, Instant loadedAt) {
    }

    @EJB
    KeyRingStore store;

    @Inject
    MasterSecret master;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    private volatile Snapshot snapshot;
    private volatile Instant lastMissReload = Instant.EPOCH;
    private final SecureRandom random = new SecureRandom();

    /** Creates the first keys when the ring is empty, and forgets keys sealed under another master secret. */
    public void bootstrap() {
        var undecryptable = store.all().stream()
                .filter(k -> master.decrypt(k.material()).isEmpty()).map(SigningKey::kid).toList();
        if (!undecryptable.isEmpty()) {
            LOG.warning(() -> "Dropping " + undecryptable.size() + " signing keys sealed under another master secret"
                    + " (ATRIUM_JWT_SECRET changed): tokens they signed are no longer valid");
            store.delete(undecryptable);
        }
        store.ensureCurrent(HS256, this::initialHmac);
        store.ensureCurrent(RS256, this::newRsa);
        reload();
    }

    public HmacKey currentHmac() {
        return fresh().currentHmac();
    }

    public Optional<HmacKey> hmac(String kid) {
        // the snapshot's maps are Map.copyOf, which throws on a null key
        return kid == null ? Optional.empty() : lookup(s -> s.hmac().get(kid));
    }

    public RSAKey currentRsa() {
        return fresh().currentRsa();
    }

    public Optional<RSAKey> rsaPublic(String kid) {
        return kid == null ? Optional.empty() : lookup(s -> s.rsa().get(kid)).map(RSAKey::toPublicJWK);
    }

    /** The public RS256 keys, current and previous, as published at {@code /.well-known/jwks.json}. */
    public JWKSet publicJwks() {
        var keys = new ArrayList<JWK>();
        fresh().rsa().values().forEach(k -> keys.add(k.toPublicJWK()));
        return new JWKSet(keys);
    }

    /** The keys as stored, without material, for administrators. */
    public List<SigningKey> keys() {
        return fresh().keys();
    }

    /** Rotates one algorithm now; answers the new key id. */
    public String rotate(String algorithm) {
        Instant now = clock.instant();
        var fresh = store.rotate(algorithm, RS256.equals(algorithm) ? this::newRsa : this::newHmac,
                keepPrevious(algorithm), null, now).orElseThrow();
        reload();
        return fresh.kid();
    }

    /** Rotates an algorithm whose current key is older than {@code maxAge}; drops previous keys past their time. */
    public Optional<String> rotateIfOlderThan(String algorithm, Duration maxAge) {
        Instant now = clock.instant();
        var rotated = store.rotate(algorithm, RS256.equals(algorithm) ? this::newRsa : this::newHmac,
                keepPrevious(algorithm), now.minus(maxAge), now);
        store.dropExpired(now);
        reload();
        return rotated.map(SigningKey::kid);
    }

    /** How long a retired key must still verify: the longest lifetime of a token it may have signed. */
    Duration keepPrevious(String algorithm) {
        long seconds = RS256.equals(algorithm) ? config.tokensAccessTtlSeconds
                : Math.max(config.tokensRefreshTtlSeconds, config.tokensVerifyTtlSeconds);
        return Duration.ofSeconds(seconds + 60);
    }

    private <T> Optional<T> lookup(Function<Snapshot, T> find) {
        T found = find.apply(fresh());
        Instant now = clock.instant();
        if (found == null && Duration.between(lastMissReload, now).compareTo(MISS_RELOAD_SPACING) >= 0) {
            // a key another instance created since the last load
            lastMissReload = now;
            reload();
            found = find.apply(snapshot);
        }
        return Optional.ofNullable(found);
    }

    private Snapshot fresh() {
        Snapshot s = snapshot;
        if (s == null || Duration.between(s.loadedAt(), clock.instant()).compareTo(SNAPSHOT_AGE) > 0
                || s.loadedAt().isAfter(clock.instant())) {
            return reload();
        }
        return s;
    }

    private synchronized Snapshot reload() {
        Instant now = clock.instant();
        HmacKey currentHmac = null;
        RSAKey currentRsa = null;
        var hmac = new HashMap<String, HmacKey>();
        var rsa = new HashMap<String, RSAKey>();
        var keys = new ArrayList<SigningKey>();
        for (SigningKey key : store.all()) {
            if (key.droppable(now)) {
                continue;
            }
            var material = master.decrypt(key.material());
            if (material.isEmpty()) {
                continue;
            }
            keys.add(key);
            if (HS256.equals(key.algorithm())) {
                var h = new HmacKey(key.kid(), material.get());
                hmac.put(key.kid(), h);
                if (key.isCurrent()) {
                    currentHmac = h;
                }
            } else {
                try {
                    var r = RSAKey.parse(new String(material.get(), StandardCharsets.UTF_8));
                    rsa.put(key.kid(), r);
                    if (key.isCurrent()) {
                        currentRsa = r;
                    }
                } catch (ParseException e) {
                    LOG.severe(() -> "Unreadable RS256 key " + key.kid() + " in the key ring");
                }
            }
        }
        if (currentHmac == null || currentRsa == null) {
            throw new IllegalStateException("The signing key ring has no current key; it is bootstrapped at start");
        }
        snapshot = new Snapshot(currentHmac, Map.copyOf(hmac), currentRsa, Map.copyOf(rsa), List.copyOf(keys), now);
        return snapshot;
    }

    private SigningKey initialHmac() {
        return new SigningKey(master.initialKid(), HS256, master.encrypt(master.secret()), null, clock.instant());
    }

    private SigningKey newHmac() {
        byte[] secret = new byte[48];
        random.nextBytes(secret);
        return new SigningKey("hs-" + randomId(), HS256, master.encrypt(secret), null, clock.instant());
    }

    private SigningKey newRsa() {
        try {
            RSAKey key = new RSAKeyGenerator(2048).keyID("rs-" + randomId()).keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256).generate();
            return new SigningKey(key.getKeyID(), RS256, master.encrypt(key.toJSONString()
                    .getBytes(StandardCharsets.UTF_8)), key.toPublicJWK().toJSONString(), clock.instant());
        } catch (JOSEException e) {
            throw new IllegalStateException("Cannot generate an RS256 key", e);
        }
    }

    private String randomId() {
        byte[] id = new byte[9];
        random.nextBytes(id);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
    }
}
