package dev.atrium.identity.entity;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One key of the signing key ring. The current key of an algorithm signs new tokens; previous keys only verify,
 * and are dropped once every token they signed has expired. {@code material} is encrypted at rest.
 */
@Entity
@Table(name = "signing_keys")
public class SigningKey {

    /** Whether a key signs (CURRENT) or only verifies (PREVIOUS). */
    public enum Status { CURRENT, PREVIOUS }

    @Id
    @Column(length = 64)
    private String kid;

    @Column(nullable = false, length = 10)
    private String algorithm;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 10)
    private Status status;

    @Column(nullable = false, length = 8000)
    private String material;

    @Column(name = "public_jwk", length = 4000)
    private String publicJwk;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "retired_at")
    private Instant retiredAt;

    @Column(name = "drop_after")
    private Instant dropAfter;

    protected SigningKey() {
    }

    public SigningKey(String kid, String algorithm, String encryptedMaterial, String publicJwk, Instant now) {
        this.kid = kid;
        this.algorithm = algorithm;
        this.material = encryptedMaterial;
        this.publicJwk = publicJwk;
        this.status = Status.CURRENT;
        this.createdAt = now;
    }

    /** Stops signing; verifies until {@code dropAfter}, when the last token it signed has expired. */
    public void retire(Instant now, Instant dropAfter) {
        this.status = Status.PREVIOUS;
        this.retiredAt = now;
        this.dropAfter = dropAfter;
    }

    public boolean droppable(Instant now) {
        return status == Status.PREVIOUS && dropAfter != null && !now.isBefore(dropAfter);
    }

    public boolean isCurrent() {
        return status == Status.CURRENT;
    }

    public String kid() {
        return kid;
    }

    public String algorithm() {
        return algorithm;
    }

    public Status status() {
        return status;
    }

    public String material() {
        return material;
    }

    public String publicJwk() {
        return publicJwk;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant retiredAt() {
        return retiredAt;
    }

    public Instant dropAfter() {
        return dropAfter;
    }
}
