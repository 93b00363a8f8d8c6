package dev.atrium.identity.control.account;

import jakarta.persistence.EntityManager;

/** The account repositories wired as the container wires them, reading with the test's entity manager. */
public final class Accounts {

    private Accounts() {
    }

    public static UserRepository users(EntityManager em) {
        var users = new UserRepository();
        users.em = em;
        return users;
    }

    public static PermissionCatalog permissions(EntityManager em) {
        var roles = new RoleRepository();
        roles.em = em;
        var permissions = new PermissionCatalog();
        permissions.roles = roles;
        return permissions;
    }
}
