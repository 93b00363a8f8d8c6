package dev.atrium.identity.entity;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

import dev.atrium.platform.error.BusinessException;

/**
 * A person known to the platform. Two facts decide whether it may log in, kept apart so that neither undoes the
 * other: whether its e-mail address is verified ({@code email_verified_at}), and whether an administrator
 * deactivated it (who, when, why). {@code is_active} is derived: verified and not deactivated; verifying never
 * lifts a deactivation. The password is only ever held as a slow salted hash.
 */
@Entity
@Table(name = "users")
public class User {

    public static final String DEFAULT_ROLE = "user";
    public static final int USERNAME_MAX = 50;
    public static final int AVATAR_MAX = 500;
    public static final int BIO_MAX = 2000;
    public static final int DEACTIVATION_REASON_MAX = 200;

    @Id
    @SequenceGenerator(name = "users_seq", sequenceName = "users_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "users_seq")
    private Long id;

    @Embedded
    private EmailAddress email;

    @Column(nullable = false, length = USERNAME_MAX)
    private String username;

    @Column(name = "hashed_password", length = 200)
    private String hashedPassword;

    @Column(name = "is_active", nullable = false)
    private boolean active;

    @Column(nullable = false, length = 50)
    private String role;

    @Column(length = AVATAR_MAX)
    private String avatar;

    @Column(length = BIO_MAX)
    private String bio;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Column(name = "credentials_valid_after")
    private Instant credentialsValidAfter;

    @Column(name = "email_verified_at")
    private Instant emailVerifiedAt;

    @Column(name = "deactivated_at")
    private Instant deactivatedAt;

    @Column(name = "deactivated_by")
    private Long deactivatedBy;

    @Column(name = "deactivation_reason", length = DEACTIVATION_REASON_MAX)
    private String deactivationReason;

    @Column(name = "verification_token_hash", length = 64)
    private String verificationTokenHash;

    @ManyToMany
    @JoinTable(name = "user_roles",
            joinColumns = @JoinColumn(name = "user_id"),
            inverseJoinColumns = @JoinColumn(name = "role_id"))
    private Set<Role> roles = new LinkedHashSet<>();

    protected User() {
    }

    private User(EmailAddress email, String username, String hashedPassword, Role role, boolean verified,
                 Instant now) {
        this.email = email;
        this.username = checkedUsername(username);
        this.hashedPassword = hashedPassword;
        this.role = role.name();
        this.roles.add(role);
        this.emailVerifiedAt = verified ? now : null;
        this.createdAt = now;
        this.updatedAt = now;
        deriveActive();
    }

    /** A self-registered user: inactive until the e-mail address is verified. */
    public static User register(EmailAddress email, String username, String hashedPassword, Role role,
                                Instant now) {
        return new User(email, username, hashedPassword, role, false, now);
    }

    /** A user known through an external identity provider that vouched for the e-mail address: active, no password. */
    public static User external(EmailAddress email, String username, Role role, Instant now) {
        return new User(email, username, null, role, true, now);
    }

    /** The first administrator, configured by the operator and trusted without verification. */
    public static User administrator(EmailAddress email, String username, String hashedPassword, Role admin,
                                     Instant now) {
        return new User(email, username, hashedPassword, admin, true, now);
    }

    /** Grants a role; the token role becomes the highest the user holds. {@code false} when already held. */
    public boolean grant(Role role, Instant now) {
        boolean added = roles.stream().noneMatch(r -> r.name().equals(role.name())) && roles.add(role);
        if (added) {
            this.role = highestRole();
            this.updatedAt = now;
        }
        return added;
    }

    /** Revokes a role; a user always keeps at least one. {@code false} when the role was not held. */
    public boolean revoke(String roleName, Instant now) {
        if (roles.stream().noneMatch(r -> r.name().equals(roleName))) {
            return false;
        }
        if (roles.size() == 1) {
            throw BusinessException.conflict("A user keeps at least one role");
        }
        roles.removeIf(r -> r.name().equals(roleName));
        this.role = highestRole();
        this.updatedAt = now;
        return true;
    }

    private String highestRole() {
        return roles.stream().max(Comparator.comparingInt(Role::rank)).map(Role::name).orElse(DEFAULT_ROLE);
    }

    /**
     * Ends every session and token issued up to now: they were issued before this instant and are refused from
     * here on. Used by password reset, logout everywhere and deactivation.
     */
    public void revokeCredentials(Instant now) {
        // whole seconds, like a token's iat: a credential issued later in the same second stays valid
        this.credentialsValidAfter = now.truncatedTo(ChronoUnit.SECONDS);
        this.updatedAt = now;
    }

    /** Whether a credential issued at this instant is still honoured. */
    public boolean accepts(Instant issuedAt) {
        return accepts(credentialsValidAfter, issuedAt);
    }

    /**
     * The rule of {@link #accepts(Instant)} for a copy of the user kept elsewhere: a credential issued at
     * {@code issuedAt} is honoured when the credentials were never revoked or it was issued since.
     */
    public static boolean accepts(Instant credentialsValidAfter, Instant issuedAt) {
        return credentialsValidAfter == null || (issuedAt != null && !issuedAt.isBefore(credentialsValidAfter));
    }

    /** Since when issued credentials are honoured; empty when they were never revoked. */
    public Optional<Instant> credentialsValidAfter() {
        return Optional.ofNullable(credentialsValidAfter);
    }

    /**
     * The address is proven (the verification link was followed). Never lifts a deactivation. {@code false} when
     * it was verified already.
     */
    public boolean verifyEmail(Instant now) {
        if (emailVerifiedAt != null) {
            return false;
        }
        emailVerifiedAt = now;
        updatedAt = now;
        deriveActive();
        return true;
    }

    /** Records the hash of the one verification link that counts from now on; earlier links stop working. */
    public void verificationIssued(String tokenHash, Instant now) {
        this.verificationTokenHash = tokenHash;
        this.updatedAt = now;
    }

    /**
     * Whether a verification link with this token hash is the current one. Accounts registered before links were
     * recorded accept any valid link.
     */
    public boolean isCurrentVerification(String tokenHash) {
        return verificationTokenHash == null || verificationTokenHash.equals(tokenHash);
    }

    /**
     * An administrator deactivates the user: it cannot log in, and every session and token it had stops working.
     * {@code false} when it was deactivated already (the first record stays).
     */
    public boolean deactivate(long byUserId, String reason, Instant now) {
        String checkedReason = checkedOptional("reason", reason == null || reason.isBlank() ? null : reason.strip(),
                DEACTIVATION_REASON_MAX);
        if (deactivatedAt != null) {
            return false;
        }
        deactivatedAt = now;
        deactivatedBy = byUserId;
        deactivationReason = checkedReason;
        revokeCredentials(now);
        deriveActive();
        return true;
    }

    /**
     * An administrator (re)activates the user: a deactivation is lifted, and an address still unverified counts as
     * verified, the administrator vouching for it, so that the user is active afterwards as asked.
     */
    public void reactivate(Instant now) {
        deactivatedAt = null;
        deactivatedBy = null;
        deactivationReason = null;
        if (emailVerifiedAt == null) {
            emailVerifiedAt = now;
        }
        updatedAt = now;
        deriveActive();
    }

    /**
     * An external provider vouched for this user's e-mail address, which proves the mailbox as the verification link
     * would. An account that was still unverified becomes verified, and its password is dropped: whoever registered
     * it never proved the address, and must not keep a way in to the owner's account. The owner can set a password
     * through the reset e-mail. A deactivation stays.
     */
    public void confirmEmailThroughProvider(Instant now) {
        if (emailVerifiedAt == null) {
            emailVerifiedAt = now;
            hashedPassword = null;
            revokeCredentials(now);
            deriveActive();
        }
    }

    private void deriveActive() {
        active = emailVerifiedAt != null && deactivatedAt == null;
    }

    public void rename(String newUsername, Instant now) {
        this.username = checkedUsername(newUsername);
        this.updatedAt = now;
    }

    public void changeAvatar(String newAvatar, Instant now) {
        this.avatar = checkedOptional("avatar", newAvatar, AVATAR_MAX);
        this.updatedAt = now;
    }

    public void changeBio(String newBio, Instant now) {
        this.bio = checkedOptional("bio", newBio, BIO_MAX);
        this.updatedAt = now;
    }

    public void changePasswordHash(String newHash, Instant now) {
        this.hashedPassword = newHash;
        this.updatedAt = now;
    }

    private static String checkedUsername(String value) {
        if (value == null || value.isBlank()) {
            throw BusinessException.validation("username: must not be blank");
        }
        String trimmed = value.strip();
        if (trimmed.length() > USERNAME_MAX) {
            throw BusinessException.validation("username: must be at most " + USERNAME_MAX + " characters");
        }
        return trimmed;
    }

    private static String checkedOptional(String name, String value, int max) {
        if (value != null && value.length() > max) {
            throw BusinessException.validation(name + ": must be at most " + max + " characters");
        }
        return value;
    }

    public Long id() {
        return id;
    }

    public EmailAddress email() {
        return email;
    }

    public String username() {
        return username;
    }

    public Optional<String> hashedPassword() {
        return Optional.ofNullable(hashedPassword);
    }

    /** Verified and not deactivated: the user may log in. */
    public boolean isActive() {
        return active;
    }

    public boolean isEmailVerified() {
        return emailVerifiedAt != null;
    }

    public boolean isDeactivated() {
        return deactivatedAt != null;
    }

    public Optional<Instant> emailVerifiedAt() {
        return Optional.ofNullable(emailVerifiedAt);
    }

    public Optional<Instant> deactivatedAt() {
        return Optional.ofNullable(deactivatedAt);
    }

    public Optional<Long> deactivatedBy() {
        return Optional.ofNullable(deactivatedBy);
    }

    public Optional<String> deactivationReason() {
        return Optional.ofNullable(deactivationReason);
    }

    public String role() {
        return role;
    }

    public List<Role> roles() {
        return roles.stream().sorted(Comparator.comparingInt(Role::rank)).toList();
    }

    public List<String> roleNames() {
        return roles().stream().map(Role::name).toList();
    }

    /** The union of the permissions of the user's roles. */
    public Set<String> permissions() {
        var codes = new TreeSet<String>();
        roles.forEach(r -> codes.addAll(r.permissionCodes()));
        return codes;
    }

    public String avatar() {
        return avatar;
    }

    public String bio() {
        return bio;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
