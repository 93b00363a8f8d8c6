package dev.atrium.identity.control.password;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * libargon2 and password4j are one argon2id: a hash made by either verifies with the other, for every password a
 * user may type (any Unicode, as UTF-8), and neither accepts a wrong password or a hash it cannot read. The native
 * engine is required wherever libargon2 is installed (scripts/services installs it); only a machine without the
 * library skips its half.
 */
class Argon2EnginesTest {

    private static final JavaArgon2 JAVA = new JavaArgon2();
    private static NativeArgon2 nativeEngine;

    @BeforeAll
    static void load() {
        nativeEngine = NativeArgon2.load().orElse(null);
        boolean installed = Stream.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/lib")
                .map(Path::of).filter(Files::isDirectory).anyMatch(dir -> {
                    try (var files = Files.list(dir)) {
                        return files.anyMatch(f -> f.getFileName().toString().startsWith("libargon2.so"));
                    } catch (java.io.IOException e) {
                        return false;
                    }
                });
        assertThat(nativeEngine != null || !installed)
                .as("libargon2 is installed but could not be loaded").isTrue();
    }

    static Stream<String> passwords() {
        return Stream.of("Bench-Passw0rd", " ", "correct horse battery staple", "Grüße aus Köln",
                "пароль-Пароль", "パスワード123", "🔑🔐 emoji", "\u0000nul inside\u0000", "tab\tand\nnewline",
                "a".repeat(1024), "combining é vs é", "\uD83D\uDE00 surrogate pair", "'; DROP TABLE users; --");
    }

    @ParameterizedTest
    @MethodSource("passwords")
    void whenEitherEngineHashesThenBothVerify(String password) {
        assumeTrue(nativeEngine != null, "libargon2 is not installed here");
        String byNative = nativeEngine.hash(password);
        String byJava = JAVA.hash(password);
        assertThat(byNative).startsWith("$argon2id$v=19$m=19456,t=2,p=1$");
        assertThat(byJava).startsWith("$argon2id$v=19$m=19456,t=2,p=1$");
        assertThat(JAVA.verify(password, byNative)).isTrue();
        assertThat(nativeEngine.verify(password, byJava)).isTrue();
        assertThat(nativeEngine.verify(password + "x", byJava)).isFalse();
        assertThat(JAVA.verify(password + "x", byNative)).isFalse();
    }

    @Test
    void whenRandomPasswordsAreHashedThenTheEnginesAgreeOnEveryOne() {
        assumeTrue(nativeEngine != null, "libargon2 is not installed here");
        var random = new Random(20261126L);
        for (int i = 0; i < 12; i++) {
            var password = new StringBuilder();
            int length = random.nextInt(40);
            while (password.length() < length) {
                int codePoint = random.nextInt(0x10FFFF);
                if (codePoint < 0xD800 || codePoint > 0xDFFF) {
                    password.appendCodePoint(codePoint);
                }
            }
            String p = password.toString();
            String other = p + (char) ('a' + random.nextInt(26));
            String hash = random.nextBoolean() ? nativeEngine.hash(p) : JAVA.hash(p);
            assertThat(nativeEngine.verify(p, hash)).as("native, password %d", i).isTrue();
            assertThat(JAVA.verify(p, hash)).as("password4j, password %d", i).isTrue();
            assertThat(nativeEngine.verify(other, hash)).isFalse();
            assertThat(JAVA.verify(other, hash)).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "$argon2id$", "$argon2id$v=19$m=19456,t=2,p=1$", "$argon2id$v=19$m=19456,t=2,p=1$$",
            "$argon2id$v=19$m=19456,t=2,p=1$!!notbase64!!$aGFzaA", "$argon2id$v=19$m=x,t=2,p=1$c2FsdHNhbHQ$aGFzaA",
            "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNo", "$2a$10$bcryptishbcryptishbcryptis",
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0"})
    void whenTheStoredHashIsUnreadableThenNoEngineMatchesAndNoneThrows(String hash) {
        assertThat(JAVA.verify("Bench-Passw0rd", hash)).isFalse();
        if (nativeEngine != null) {
            assertThat(nativeEngine.verify("Bench-Passw0rd", hash)).isFalse();
        }
        assertThat(PasswordHasher.standalone().matches("Bench-Passw0rd", hash)).isFalse();
    }

    @Test
    void whenThePasswordIsEmptyThenItNeverMatches() {
        // the engines disagree on the empty password (password4j refuses to verify it); no policy lets one be set
        var hasher = PasswordHasher.standalone();
        String hash = hasher.hash("Bench-Passw0rd");
        assertThat(hasher.matches("", hash)).isFalse();
        assertThat(hasher.matches(null, hash)).isFalse();
    }

    @Test
    void whenTheHasherStartsThenItUsesLibargon2WhereverItIsInstalled() {
        var hasher = PasswordHasher.standalone();
        assertThat(hasher.engine()).isEqualTo(nativeEngine != null ? nativeEngine.name() : JAVA.name());
        String hash = hasher.hash("Bench-Passw0rd");
        assertThat(hasher.matches("Bench-Passw0rd", hash)).isTrue();
        assertThat(JAVA.verify("Bench-Passw0rd", hash)).isTrue();
        assertThat(hasher.matches("bench-passw0rd", hash)).isFalse();
    }
}
