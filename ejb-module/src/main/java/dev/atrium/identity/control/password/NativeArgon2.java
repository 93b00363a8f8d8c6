package dev.atrium.identity.control.password;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import de.mkammerer.argon2.Argon2Advanced;
import de.mkammerer.argon2.Argon2Factory;

/**
 * argon2id by the system's libargon2 (Debian's {@code libargon2-1}), called through JNA: the reference
 * implementation in C, with its memory outside the Java heap. Passwords go to it as UTF-8, as password4j encodes
 * them, and the char arrays handed over are wiped after each call.
 */
final class NativeArgon2 implements Argon2Engine {

    private final Argon2Advanced argon2;

    private NativeArgon2(Argon2Advanced argon2) {
        this.argon2 = argon2;
    }

    /** The engine, when libargon2 can be loaded and answers a first hash; empty otherwise. */
    static Optional<NativeArgon2> load() {
        try {
            var engine = new NativeArgon2(Argon2Factory.createAdvanced(Argon2Factory.Argon2Types.ARGON2id,
                    SALT_BYTES, HASH_BYTES));
            engine.hash("probe");
            return Optional.of(engine);
        } catch (LinkageError | RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    @Override
    public String hash(String password) {
        char[] chars = password.toCharArray();
        try {
            return argon2.hash(ITERATIONS, MEMORY_KIB, PARALLELISM, chars, StandardCharsets.UTF_8);
        } finally {
            argon2.wipeArray(chars);
        }
    }

    @Override
    public boolean verify(String password, String hash) {
        char[] chars = password.toCharArray();
        try {
            return argon2.verify(hash, chars, StandardCharsets.UTF_8);
        } catch (RuntimeException unreadable) {
            return false;
        } finally {
            argon2.wipeArray(chars);
        }
    }

    @Override
    public String name() {
        return "libargon2 (native)";
    }
}
