package dev.atrium.identity.control;

import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane). Hashes are PHC strings that carry their own
 * parameters, so they can be strengthened later without invalidating stored ones. The system's libargon2 computes
 * them when it can be loaded (a login then costs a fraction of the CPU), password4j in pure Java otherwise; both
 * read each other's hashes, so a server may move between them with the same database.
 */
@ApplicationScoped
public class PasswordHasher {

    private static final Logger LOG = Logger.getLogger(PasswordHasher.class.getName());

    private final Argon2Engine engine = Engines.BEST;

    /** Checked against when an account does not exist, so both answers cost the same time. */
    private final String decoy = hash("decoy-password-Never-matches-1");

    /** Chosen once per class loader: loading libargon2 is done once, and logged once. */
    private static final class Engines {
        static final Argon2Engine BEST = NativeArgon2.load().<Argon2Engine>map(e -> e).orElseGet(JavaArgon2::new);

        static {
            LOG.info(() -> "Password hashing: argon2id by " + BEST.name()
                    + (BEST instanceof JavaArgon2 ? "; libargon2 (Debian: libargon2-1) was not found" : ""));
        }
    }

    public String hash(String password) {
        return engine.hash(password);
    }

    public boolean matches(String password, String hash) {
        // no policy lets an empty password be set, and the two engines do not agree on one
        if (password == null || password.isEmpty() || hash == null || !hash.startsWith("$argon2")) {
            return false;
        }
        return engine.verify(password, hash);
    }

    /** Spends the time of one verification without any account. */
    public void burnTime(String password) {
        matches(password == null ? "" : password, decoy);
    }

    /** Which engine computes the hashes in this process (libargon2 or password4j). */
    public String engine() {
        return engine.name();
    }
}
