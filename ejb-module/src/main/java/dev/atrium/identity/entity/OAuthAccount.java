package dev.atrium.identity.entity;

import java.time.Instant;
import java.util.regex.Pattern;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/**
 * An external account bound to a local user (spec 01 OAuthAccount): the user's identifier at a provider. The pair
 * (provider, provider user id) names one external account, and the database keeps it bound to one user at most.
 */
@Entity
@Table(name = "oauth_accounts")
public class OAuthAccount {

    public static final int PROVIDER_MAX = 20;
    public static final int PROVIDER_USER_ID_MAX = 100;
    /** Provider names as configured: lower-case letters, digits and hyphens. */
    public static final Pattern PROVIDER_NAME = Pattern.compile("[a-z0-9-]{1," + PROVIDER_MAX + "}");

    @Id
    @SequenceGenerator(name = "oauth_accounts_seq", sequenceName = "oauth_accounts_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "oauth_accounts_seq")
    private Long id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = PROVIDER_MAX)
    private String provider;

    @Column(name = "provider_user_id", nullable = false, length = PROVIDER_USER_ID_MAX)
    private String providerUserId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected OAuthAccount() {
    }

    public OAuthAccount(long userId, String provider, String providerUserId, Instant now) {
        if (provider == null || !PROVIDER_NAME.matcher(provider).matches()) {
            throw new IllegalArgumentException("provider: lower-case letters, digits and hyphens, at most "
                    + PROVIDER_MAX + " characters");
        }
        if (providerUserId == null || providerUserId.isBlank()) {
            throw BusinessException.badRequest("The provider did not name the account (no subject)");
        }
        if (providerUserId.length() > PROVIDER_USER_ID_MAX) {
            throw BusinessException.badRequest("The provider's account identifier is longer than "
                    + PROVIDER_USER_ID_MAX + " characters");
        }
        this.userId = userId;
        this.provider = provider;
        this.providerUserId = providerUserId;
        this.createdAt = now;
    }

    public Long id() {
        return id;
    }

    public long userId() {
        return userId;
    }

    public String provider() {
        return provider;
    }

    public String providerUserId() {
        return providerUserId;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
