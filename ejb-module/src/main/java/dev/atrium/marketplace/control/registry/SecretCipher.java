package dev.atrium.marketplace.control.registry;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.UUID;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.identity.control.token.MasterSecret;

/**
 * Seals agents' secret values: AES-256-GCM under a key derived from the master secret for this use alone, a new
 * random 96-bit nonce at every write, and the agent's id and the variable's name as associated data, so that a
 * sealed value copied to another agent or another name no longer opens.
 */
@ApplicationScoped
public class SecretCipher {

    static final String KEY_LABEL = "agent-secrets-v1";
    static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    /** A sealed value: its nonce, and the ciphertext with the GCM tag appended. */
    public record Sealed(byte[] nonce, byte[] ciphertext) {

        public Sealed {
            nonce = nonce.clone();
            ciphertext = ciphertext.clone();
        }
    }

    @Inject
    MasterSecret master;

    private SecretKey key;
    private final SecureRandom random = new SecureRandom();

    SecretCipher() {
    }

    SecretCipher(SecretKey key) {
        this.key = key;
    }

    @PostConstruct
    void deriveKey() {
        if (key == null) {
            key = master.derivedKey(KEY_LABEL);
        }
    }

    public Sealed seal(UUID agentId, String name, String value) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(agentId, name));
            return new Sealed(nonce, cipher.doFinal(value.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot seal a secret value", e);
        }
    }

    /** The value; empty when it was sealed for another agent or name, altered, or sealed under another key. */
    public Optional<String> open(UUID agentId, String name, Sealed sealed) {
        // shorter than the tag is no sealed value; the provider would fail on it with an unchecked error
        if (sealed.nonce().length != NONCE_BYTES || sealed.ciphertext().length < TAG_BITS / 8) {
            return Optional.empty();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed.nonce()));
            cipher.updateAAD(associatedData(agentId, name));
            return Optional.of(new String(cipher.doFinal(sealed.ciphertext()), StandardCharsets.UTF_8));
        } catch (AEADBadTagException e) {
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot open a secret value", e);
        }
    }

    /** The agent and the name, unambiguously joined: neither a UUID nor a valid name holds a NUL. */
    static byte[] associatedData(UUID agentId, String name) {
        return ("atrium-agent-secret\0" + agentId + "\0" + name).getBytes(StandardCharsets.UTF_8);
    }
}
