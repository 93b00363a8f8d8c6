package dev.atrium.marketplace.control.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.UUID;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

/** The sealing of agents' secrets: AES-GCM with a fresh nonce, bound to the agent and the name. */
class SecretCipherTest {

    private static final UUID AGENT = UUID.fromString("0b1e6c9a-4f7e-4c55-9a7e-2f4d8d1e2a10");
    private static final UUID OTHER_AGENT = UUID.fromString("7c3d2e1f-0a9b-4c8d-8e7f-6a5b4c3d2e1f");

    private final SecretCipher cipher = new SecretCipher(key((byte) 1));

    private static SecretKeySpec key(byte fill) {
        byte[] bytes = new byte[32];
        Arrays.fill(bytes, fill);
        return new SecretKeySpec(bytes, "AES");
    }

    @Test
    void whenAValueIsSealedThenItOpensForTheSameAgentAndName() {
        var sealed = cipher.seal(AGENT, "API_KEY", "sk-live-\u00e9\u4e2d-value");

        assertThat(sealed.nonce()).hasSize(12);
        assertThat(sealed.ciphertext()).hasSize("sk-live-\u00e9\u4e2d-value".getBytes(
                java.nio.charset.StandardCharsets.UTF_8).length + 16);
        assertThat(cipher.open(AGENT, "API_KEY", sealed)).contains("sk-live-\u00e9\u4e2d-value");
    }

    @Test
    void whenTheSameValueIsSealedTwiceThenNonceAndCiphertextDiffer() {
        var nonces = new HashSet<String>();
        byte[] previous = null;
        for (int i = 0; i < 1000; i++) {
            var sealed = cipher.seal(AGENT, "API_KEY", "same value");
            assertThat(nonces.add(Arrays.toString(sealed.nonce()))).as("nonce " + i + " is new").isTrue();
            assertThat(sealed.ciphertext()).isNotEqualTo(previous);
            previous = sealed.ciphertext();
        }
    }

    @Test
    void whenAnyByteOfTheCiphertextOrNonceChangesThenItDoesNotOpen() {
        var sealed = cipher.seal(AGENT, "API_KEY", "the value");
        for (int i = 0; i < sealed.ciphertext().length; i++) {
            byte[] tampered = sealed.ciphertext();
            tampered[i] ^= 0x01;
            assertThat(cipher.open(AGENT, "API_KEY", new SecretCipher.Sealed(sealed.nonce(), tampered)))
                    .as("ciphertext byte " + i).isEmpty();
        }
        for (int i = 0; i < sealed.nonce().length; i++) {
            byte[] tampered = sealed.nonce();
            tampered[i] ^= (byte) 0x80;
            assertThat(cipher.open(AGENT, "API_KEY", new SecretCipher.Sealed(tampered, sealed.ciphertext())))
                    .as("nonce byte " + i).isEmpty();
        }
    }

    @Test
    void whenTheSealedValueIsMovedToAnotherAgentOrNameThenItDoesNotOpen() {
        var sealed = cipher.seal(AGENT, "API_KEY", "the value");

        assertThat(cipher.open(OTHER_AGENT, "API_KEY", sealed)).isEmpty();
        assertThat(cipher.open(AGENT, "API_KEY2", sealed)).isEmpty();
        assertThat(cipher.open(AGENT, "api_key", sealed)).isEmpty();
        assertThat(cipher.open(AGENT, "API_KEY", sealed)).contains("the value");
    }

    @Test
    void whenTheKeyDiffersThenItDoesNotOpen() {
        var sealed = cipher.seal(AGENT, "API_KEY", "the value");

        assertThat(new SecretCipher(key((byte) 2)).open(AGENT, "API_KEY", sealed)).isEmpty();
    }

    @Test
    void whenTheSealedValueIsTruncatedOrEmptyThenItDoesNotOpen() {
        var sealed = cipher.seal(AGENT, "API_KEY", "the value");
        byte[] whole = sealed.ciphertext();

        for (int length = 0; length < whole.length; length++) {
            assertThat(cipher.open(AGENT, "API_KEY", new SecretCipher.Sealed(sealed.nonce(),
                    Arrays.copyOf(whole, length)))).as("first " + length + " bytes").isEmpty();
        }
        assertThat(cipher.open(AGENT, "API_KEY", new SecretCipher.Sealed(new byte[0], whole))).isEmpty();
        assertThat(cipher.open(AGENT, "API_KEY", new SecretCipher.Sealed(Arrays.copyOf(sealed.nonce(), 16), whole)))
                .isEmpty();
    }
}
