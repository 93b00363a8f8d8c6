package dev.atrium.identity.entity;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.Table;

/** A named set of permissions. The four roles and their permissions are seeded by migrations. */
@Entity
@Table(name = "roles")
public class Role {

    /** From least to most privileged: the highest role a user has is the one carried in access tokens. */
    public static final List<String> RANK = List.of("user", "pro_user", "developer", "admin");

    @Id
    private Long id;

    @Column(nullable = false, length = 50, unique = true)
    private String name;

    @ManyToMany(fetch = FetchType.LAZY)
    @JoinTable(name = "role_permissions",
            joinColumns = @JoinColumn(name = "role_id"),
            inverseJoinColumns = @JoinColumn(name = "permission_id"))
    private Set<Permission> permissions = new LinkedHashSet<>();

    protected Role() {
    }

    public Long id() {
        return id;
    }

    public String name() {
        return name;
    }

    public List<String> permissionCodes() {
        return permissions.stream().map(Permission::code).sorted().toList();
    }

    public List<Permission> permissions() {
        return permissions.stream().sorted(Comparator.comparing(Permission::code)).toList();
    }

    public int rank() {
        int rank = RANK.indexOf(name);
        return rank < 0 ? -1 : rank;
    }
}
