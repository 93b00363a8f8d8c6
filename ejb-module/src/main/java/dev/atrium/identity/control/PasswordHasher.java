package dev.atrium.identity.control;

import jakarta.enterprise.context.ApplicationScoped;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;

/**
 * argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane). Hashes are PHC strings that carry their own
 * parameters, so they can be strengthened later without invalidating stored ones.
 */
@ApplicationScoped
public class PasswordHasher {

    private static final Argon2Function ARGON2 = Argon2Function.getInstance(19_456, 2, 1, 32, Argon2.ID);

    /** Checked against when an account does not exist, so both answers cost the same time. */
    private final String decoy = hash("decoy-password-Never-matches-1");

    public String hash(String password) {
        return Password.hash(password).addRandomSalt(16).with(ARGON2).getResult();
    }

    public boolean matches(String password, String hash) {
        if (password == null || hash == null || !hash.startsWith("$argon2")) {
            return false;
        }
        return Password.check(password, hash).with(Argon2Function.getInstanceFromHash(hash));
    }

    /** Spends the time of one verification without any account. */
    public void burnTime(String password) {
        matches(password == null ? "" : password, decoy);
    }
}
