package dev.atrium.identity.control.token;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.logging.Logger;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.platform.PlatformConfig;

/**
 * The platform's master secret: {@code atrium.jwt.secret} (32+ bytes) in production, otherwise a random secret
 * generated once and kept in the data directory (fine for one instance, and the log says so). It is the first HS256
 * signing key, and the key ring's keys are encrypted at rest (AES-GCM) with a key derived from it; other uses get
 * keys of their own from {@link #derivedKey}.
 */
@ApplicationScoped
public class MasterSecret {

    private static final Logger LOG = Logger.getLogger(MasterSecret.class.getName());
    static final int MIN_SECRET_BYTES = 32;
    private static final int IV_BYTES = 12;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @Inject
    @ConfigProperties
    PlatformConfig platformConfig;

    private byte[] secret;
    private SecretKeySpec encryptionKey;
    private final SecureRandom random = new SecureRandom();

    @PostConstruct
    void load() {
        secret = config.jwtSecret.filter(s -> !s.isBlank())
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseGet(this::generatedSecret);
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalStateException("ATRIUM_JWT_SECRET must be at least " + MIN_SECRET_BYTES + " bytes");
        }
        encryptionKey = new SecretKeySpec(sha256("atrium-key-ring-encryption".getBytes(StandardCharsets.UTF_8),
                secret), "AES");
    }

    /** The secret itself: the key ring's first HS256 key. */
    public byte[] secret() {
        return secret.clone();
    }

    /** A stable identifier for the first HS256 key, the same on every instance sharing the secret. */
    public String initialKid() {
        return "hs-" + Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(secret)).substring(0, 12);
    }

    /**
     * A 256-bit AES key for one use, named by {@code label}: HKDF-SHA256 (RFC 5869) of the secret with a fixed salt
     * and the label as info, so that each use has its own key and none is the signing key or the key ring's.
     */
    public SecretKey derivedKey(String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec("atrium-master-secret".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] pseudoRandomKey = mac.doFinal(secret);
            mac.init(new SecretKeySpec(pseudoRandomKey, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 1);
            return new SecretKeySpec(mac.doFinal(), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot derive a key", e);
        }
    }

    public String encrypt(byte[] plain) {
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, encryptionKey, new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(plain);
            return Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length)
                    .put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot encrypt key material", e);
        }
    }

    /** Empty when the material was sealed under another master secret. */
    public Optional<byte[]> decrypt(String sealed) {
        try {
            byte[] all = Base64.getDecoder().decode(sealed);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, encryptionKey, new GCMParameterSpec(128, all, 0, IV_BYTES));
            return Optional.of(cipher.doFinal(all, IV_BYTES, all.length - IV_BYTES));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static byte[] sha256(byte[]... parts) {
        try {
            var digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] generatedSecret() {
        Path file = Path.of(platformConfig.dataDir).toAbsolutePath().normalize().resolve("keys").resolve("jwt-secret");
        try {
            if (Files.exists(file)) {
                return Base64.getDecoder().decode(Files.readString(file).trim());
            }
            byte[] generated = new byte[48];
            random.nextBytes(generated);
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), "jwt-secret", ".tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system; the directory's own protection applies
            }
            Files.writeString(tmp, Base64.getEncoder().encodeToString(generated));
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            LOG.warning(() -> "ATRIUM_JWT_SECRET is not set: generated a master secret in " + file
                    + ". Set ATRIUM_JWT_SECRET when running more than one instance.");
            return generated;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the generated master secret in " + file, e);
        }
    }
}
