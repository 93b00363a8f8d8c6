package dev.atrium.identity.control.token;

import java.time.Duration;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.IdentityConfig;

/**
 * Creates the key ring at start and rotates it on a schedule: every ten minutes, a current key older than
 * {@code atrium.keys.rotate-after-days} (0 = only on demand) is replaced, and previous keys whose tokens have all
 * expired are dropped. Several instances may run this at once; the store serialises them.
 */
@Startup
@Singleton
@DependsOn("DatabaseMigrations")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class KeyRingMaintenance {

    private static final Logger LOG = Logger.getLogger(KeyRingMaintenance.class.getName());

    @Inject
    KeyRing ring;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    @PostConstruct
    void start() {
        ring.bootstrap();
    }

    @Schedule(hour = "*", minute = "*/10", persistent = false)
    void rotateWhenDue() {
        if (config.keysRotateAfterDays <= 0) {
            return;
        }
        for (String algorithm : new String[] {KeyRing.HS256, KeyRing.RS256}) {
            ring.rotateIfOlderThan(algorithm, Duration.ofDays(config.keysRotateAfterDays))
                    .ifPresent(kid -> LOG.info(() -> "Scheduled rotation: " + algorithm + " signs with " + kid));
        }
    }
}
