package dev.atrium.identity.control.password;

/**
 * One implementation of argon2id over PHC strings ({@code $argon2id$v=19$m=…,t=…,p=…$salt$hash}): the system's
 * libargon2 ({@link NativeArgon2}) or password4j in pure Java ({@link JavaArgon2}). Both read and write the same
 * strings, so a hash made by one verifies with the other ({@code Argon2EnginesTest}).
 */
interface Argon2Engine {

    /** The OWASP baseline: 19 MiB, 2 passes, 1 lane, a 16-byte salt and a 32-byte hash. */
    int MEMORY_KIB = 19_456;
    int ITERATIONS = 2;
    int PARALLELISM = 1;
    int SALT_BYTES = 16;
    int HASH_BYTES = 32;

    String hash(String password);

    /** {@code false} for a wrong password and for a hash this engine cannot read. */
    boolean verify(String password, String hash);

    String name();
}
