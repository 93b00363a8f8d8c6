package dev.atrium.identity.control.password;

import com.password4j.Argon2Function;
import com.password4j.Password;
import com.password4j.types.Argon2;

/** argon2id in pure Java (password4j): runs everywhere, about a tenth of libargon2's rate on the same core. */
final class JavaArgon2 implements Argon2Engine {

    private static final Argon2Function ARGON2 = Argon2Function.getInstance(MEMORY_KIB, ITERATIONS, PARALLELISM,
            HASH_BYTES, Argon2.ID);

    @Override
    public String hash(String password) {
        return Password.hash(password).addRandomSalt(SALT_BYTES).with(ARGON2).getResult();
    }

    @Override
    public boolean verify(String password, String hash) {
        try {
            return Password.check(password, hash).with(Argon2Function.getInstanceFromHash(hash));
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    @Override
    public String name() {
        return "password4j (pure Java)";
    }
}
