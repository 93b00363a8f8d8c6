package dev.atrium.identity.control.login;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.account.PermissionCatalog;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.token.InvalidTokenException.Reason;
import dev.atrium.identity.control.token.InvalidTokenException;
import dev.atrium.identity.control.token.TokenService;
import dev.atrium.identity.control.token.TokenType;
import dev.atrium.identity.control.token.VerifiedToken;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.kv.KeyValueStoreException;
import dev.atrium.platform.persistence.AfterCommit;

/**
 * What a bearer request would otherwise work out every time, kept by this instance between requests: an access
 * token's checked claims, and the user behind it with its roles and permissions. Nothing kept outlives what it was
 * made from:
 * <ul>
 * <li>a token is kept only once verified (a forged one costs its verification every time), and used again only
 * while it is unexpired and its key is still on the ring;</li>
 * <li>a user is kept only while active, under the version of it the shared store holds, and for at most
 * {@code atrium.identity.caller-cache-seconds}. Every service that changes what a caller is made of (status,
 * roles, revoked credentials, name, address, deletion) calls {@link #changed} in its transaction, which gives
 * the user a new random version once the change commits (random, so a store that restarted empty cannot count back
 * to a version seen before), on every instance at once. The seconds bound what no service saw: a row changed by
 * hand, a version lost with the store.</li>
 * </ul>
 * Every request still asks the shared store, in one round trip, whether its token was revoked and which version of
 * its user is current; the version is read before the user, and changed after the commit, so a user read while a
 * change commits is kept under a version that is already old.
 */
@ApplicationScoped
public class KnownCallers {

    /** At most this many tokens and this many users; a full table starts afresh. */
    static final int MAX_ENTRIES = 10_000;
    private static final String NO_VERSION = "";
    private static final Logger LOG = Logger.getLogger(KnownCallers.class.getName());

    /** A token checked by {@link TokenService}, and where the store would hold its revocation. */
    record Checked(VerifiedToken token, String revokedKey) {
    }

    /** The token as presented now: checked, not revoked, and the version of its user the store holds. */
    public record Presented(VerifiedToken token, String userVersion) {
    }

    /** An active user as a caller is made of it, read under {@code version} at {@code keptAt}. */
    public record KnownUser(long id, String username, String email, String role, Set<String> groups,
                            Set<String> permissions, Instant credentialsValidAfter, String version, Instant keptAt) {

        /** The same rule as {@link User#accepts}. */
        public boolean accepts(Instant issuedAt) {
            return User.accepts(credentialsValidAfter, issuedAt);
        }
    }

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    TokenService tokens;

    @Inject
    UserRepository users;

    @Inject
    PermissionCatalog permissions;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    private final Map<String, Checked> checkedTokens = new ConcurrentHashMap<>();
    private final Map<Long, KnownUser> knownUsers = new ConcurrentHashMap<>();

    /**
     * An access token or SSO token checked now or earlier, then asked about in the store: revoked, and its user's
     * version. Throws as {@link TokenService#verify} does, and {@code REVOKED}.
     */
    public Presented present(String credential) throws InvalidTokenException {
        Checked checked = checked(credential);
        return new Presented(checked.token(), unrevoked(checked.revokedKey(), checked.token().userId()));
    }

    /**
     * A refresh token, verified by the caller: not revoked, and the version of its user the store holds (the
     * argument of {@link #user}), asked in one round trip. Throws {@code REVOKED}.
     */
    public String versionForRefresh(VerifiedToken refreshToken) throws InvalidTokenException {
        return unrevoked(TokenBlacklist.key(refreshToken.raw()), refreshToken.userId());
    }

    private String unrevoked(String revokedKey, long userId) throws InvalidTokenException {
        List<Optional<String>> answers = store.getAll(List.of(revokedKey, versionKey(userId)));
        if (answers.get(0).isPresent()) {
            throw new InvalidTokenException(Reason.REVOKED);
        }
        return answers.get(1).orElse(NO_VERSION);
    }

    /** The user, active, as of {@code version}: kept, or read with its roles and kept. Empty for anyone else. */
    public Optional<KnownUser> user(long userId, String version) {
        Instant now = clock.instant();
        KnownUser kept = knownUsers.get(userId);
        if (kept != null && kept.version().equals(version) && fresh(kept.keptAt(), now)) {
            return Optional.of(kept);
        }
        Optional<KnownUser> read = users.findWithRoles(userId).filter(User::isActive).map(u -> snapshot(u, version,
                now));
        if (read.isPresent() && config.callerCacheSeconds > 0) {
            keep(knownUsers, userId, read.get());
        } else {
            knownUsers.remove(userId);
        }
        return read;
    }

    /**
     * The user changed in the current transaction: once it commits (at once outside one) every instance reads it
     * again. A store that cannot be told leaves other instances on what they kept for the seconds at most.
     */
    public void changed(long userId) {
        AfterCommit.run(transactions, () -> {
            knownUsers.remove(userId);
            try {
                store.set(versionKey(userId), UUID.randomUUID().toString(), versionLifetime());
            } catch (KeyValueStoreException e) {
                LOG.warning(() -> "A user's change could not be announced to other instances; they may act on what "
                        + "they kept for up to " + config.callerCacheSeconds + " s: " + e.getMessage());
            }
        });
    }

    private Checked checked(String credential) throws InvalidTokenException {
        Checked kept = checkedTokens.get(credential);
        if (kept != null && tokens.stillValid(kept.token())) {
            return kept;
        }
        VerifiedToken token = tokens.verify(credential, TokenType.ACCESS, true);
        Checked checked = new Checked(token, TokenBlacklist.key(credential));
        if (config.callerCacheSeconds > 0) {
            keep(checkedTokens, credential, checked);
        }
        return checked;
    }

    private boolean fresh(Instant keptAt, Instant now) {
        return !keptAt.isAfter(now) && Duration.between(keptAt, now).getSeconds() < config.callerCacheSeconds;
    }

    private KnownUser snapshot(User user, String version, Instant now) {
        Set<String> roles = Set.copyOf(user.roleNames());
        return new KnownUser(user.id(), user.username(), user.email().value(), user.role(), roles,
                Set.copyOf(permissions.permissionsOf(roles)), user.credentialsValidAfter().orElse(null), version, now);
    }

    /** Long enough that a version cannot expire back to "none" while a user kept under "none" is still used. */
    private Duration versionLifetime() {
        return Duration.ofSeconds(2 * Math.max(config.callerCacheSeconds, 0) + 60);
    }

    static String versionKey(long userId) {
        return "identity:user-version:" + userId;
    }

    static <K, V> void keep(Map<K, V> table, K key, V value) {
        if (table.size() >= MAX_ENTRIES && !table.containsKey(key)) {
            table.clear();
        }
        table.put(key, value);
    }
}
