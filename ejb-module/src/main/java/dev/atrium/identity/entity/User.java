package dev.atrium.identity.entity;

import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
 * A person known to the platform. Created inactive at registration and activated by e-mail verification;
 * the password is only ever held as a slow salted hash.
 */
@Entity
@Table(name = "users")
public class User {

    public static final String DEFAULT_ROLE = "user";
    public static final int USERNAME_MAX = 50;
    public static final int AVATAR_MAX = 500;
    public static final int BIO_MAX = 2000;

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

    @ManyToMany
    @JoinTable(name = "user_roles",
            joinColumns = @JoinColumn(name = "user_id"),
            inverseJoinColumns = @JoinColumn(name = "role_id"))
    private Set<Role> roles = new LinkedHashSet<>();

    protected User() {
    }

    private User(EmailAddress email, String username, String hashedPassword, String role, boolean active,
                 Instant now) {
        this.email = email;
        this.username = checkedUsername(username);
        this.hashedPassword = hashedPassword;
        this.role = role;
        this.active = active;
        this.createdAt = now;
        this.updatedAt = now;
    }

    /** A self-registered user: inactive until the e-mail address is verified. */
    public static User register(EmailAddress email, String username, String hashedPassword, Role role,
                                Instant now) {
        var user = new User(email, username, hashedPassword, role.name(), false, now);
        user.roles.add(role);
        return user;
    }

    /** A user known through an external identity provider that vouched for the e-mail address: active, no password. */
    public static User external(EmailAddress email, String username, Role role, Instant now) {
        var user = new User(email, username, null, role.name(), true, now);
        user.roles.add(role);
        return user;
    }

    /** The first administrator, configured by the operator and trusted without verification. */
    public static User administrator(EmailAddress email, String username, String hashedPassword, Role admin,
                                     Instant now) {
        var user = new User(email, username, hashedPassword, admin.name(), true, now);
        user.roles.add(admin);
        return user;
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
        this.credentialsValidAfter = now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        this.updatedAt = now;
    }

    /** Whether a credential issued at this instant is still honoured. */
    public boolean accepts(Instant issuedAt) {
        return credentialsValidAfter == null || (issuedAt != null && !issuedAt.isBefore(credentialsValidAfter));
    }

    public void activate(Instant now) {
        if (!active) {
            active = true;
            updatedAt = now;
        }
    }

    /** A deactivated user cannot log in, and every session and token it had stops working. */
    public void deactivate(Instant now) {
        if (active) {
            active = false;
            revokeCredentials(now);
        }
    }

    /**
     * An external provider vouched for this user's e-mail address, which proves the mailbox as the verification link
     * would. An account that was still unverified is activated, and its password dropped: whoever registered it
     * never proved the address, and must not keep a way in to the owner's account. The owner can set a password
     * through the reset e-mail.
     */
    public void confirmEmailThroughProvider(Instant now) {
        if (!active) {
            active = true;
            hashedPassword = null;
            revokeCredentials(now);
        }
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

    public boolean isActive() {
        return active;
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
        var codes = new java.util.TreeSet<String>();
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
