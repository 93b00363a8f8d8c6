package dev.atrium.ai.control;

import java.time.Clock;

import jakarta.persistence.EntityManager;

import dev.atrium.ai.control.models.ModelCatalog;
import dev.atrium.platform.kv.KeyValueStore;

/** The quota service wired as the container wires it: tiers read with the test's entity manager, kept in its store. */
public final class Quotas {

    private Quotas() {
    }

    public static QuotaService service(EntityManager em, KeyValueStore store, Clock clock, AiConfig config,
                                       ModelCatalog catalog) {
        var tenants = new TenantService();
        tenants.em = em;
        tenants.clock = clock;
        tenants.known = new KnownTiers();
        tenants.known.store = store;
        tenants.known.clock = clock;
        tenants.known.config = config;
        var quotas = new QuotaService();
        quotas.store = store;
        quotas.clock = clock;
        quotas.tenants = tenants;
        quotas.catalog = catalog;
        return quotas;
    }
}
