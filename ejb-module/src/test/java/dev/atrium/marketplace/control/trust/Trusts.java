package dev.atrium.marketplace.control.trust;

import java.time.Clock;

import jakarta.persistence.EntityManager;

import dev.atrium.identity.control.login.AlertService;
import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.platform.config.ConfigDefaults;

/** The trust service wired as the container wires it, with the default configuration. */
public final class Trusts {

    private Trusts() {
    }

    public static TrustService service(EntityManager em, Clock clock, AgentChanges changes, AlertService alerts) {
        var trust = new TrustService();
        trust.em = em;
        trust.config = ConfigDefaults.of(MarketplaceConfig.class);
        trust.clock = clock;
        trust.changes = changes;
        trust.alerts = alerts;
        return trust;
    }
}
