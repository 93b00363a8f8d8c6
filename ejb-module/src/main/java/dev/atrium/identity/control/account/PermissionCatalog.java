package dev.atrium.identity.control.account;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Which permissions each role grants. Roles and their permissions come from migrations and do not change while
 * the application runs, so each instance reads them once.
 */
@ApplicationScoped
public class PermissionCatalog {

    @Inject
    RoleRepository roles;

    private volatile Map<String, Set<String>> byRole;

    public Set<String> permissionsOf(Collection<String> roleNames) {
        var all = new TreeSet<String>();
        roleNames.forEach(r -> all.addAll(table().getOrDefault(r, Set.of())));
        return all;
    }

    private Map<String, Set<String>> table() {
        var table = byRole;
        if (table == null) {
            var loaded = new HashMap<String, Set<String>>();
            roles.all().forEach(role -> loaded.put(role.name(), Set.copyOf(role.permissionCodes())));
            table = Map.copyOf(loaded);
            byRole = table;
        }
        return table;
    }
}
