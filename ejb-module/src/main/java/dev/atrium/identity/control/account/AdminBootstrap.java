package dev.atrium.identity.control.account;

import java.time.Clock;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.password.PasswordHasher;
import dev.atrium.identity.control.password.PasswordPolicy;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;

/** Creates the first administrator from configuration when that account does not exist yet. */
@Startup
@Singleton
@DependsOn("DatabaseMigrations")
public class AdminBootstrap {

    private static final Logger LOG = Logger.getLogger(AdminBootstrap.class.getName());

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @Inject
    UserRepository users;

    @Inject
    PasswordHasher hasher;

    @Inject
    RoleRepository roles;

    @Inject
    Clock clock;

    @PostConstruct
    void ensureAdministrator() {
        Optional<String> email = config.adminEmail;
        Optional<String> password = config.adminPassword;
        if (email.filter(s -> !s.isBlank()).isEmpty() || password.filter(s -> !s.isBlank()).isEmpty()) {
            return;
        }
        try {
            EmailAddress address = EmailAddress.of(email.get());
            if (users.findByEmail(address).isPresent()) {
                return;
            }
            PasswordPolicy.check(password.get());
            String name = address.value().substring(0, address.value().indexOf('@'));
            User admin = User.administrator(address, name, hasher.hash(password.get()), roles.require("admin"),
                    clock.instant());
            if (users.add(admin)) {
                LOG.info(() -> "Created the first administrator " + address);
            }
        } catch (BusinessException e) {
            LOG.severe(() -> "ATRIUM_ADMIN_EMAIL/ATRIUM_ADMIN_PASSWORD rejected, no administrator created: "
                    + e.details());
        }
    }
}
