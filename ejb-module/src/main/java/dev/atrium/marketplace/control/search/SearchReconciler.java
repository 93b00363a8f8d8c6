package dev.atrium.marketplace.control.search;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.entity.AgentStatus;

/**
 * Keeps this instance's search index true to the database. Once the index is built it applies the changes that
 * arrived during the build, then compares, at start and every {@code atrium.marketplace.search.reconcile-minutes}
 * (default 5), the listed agents' ids, serving versions and last change times (one light query) with what the index
 * holds, and indexes again or drops whatever differs: a change whose message this instance missed (it was down, or
 * the message was lost) is searchable after the next round. Each instance reads only and fixes its own index.
 */
@Startup
@Singleton
@DependsOn("SearchIndexStartup")
public class SearchReconciler {

    private static final Logger LOG = Logger.getLogger(SearchReconciler.class.getName());

    /** What a round changed. */
    public record Result(int indexed, int removed) {
    }

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    SearchIndex index;

    @EJB
    AgentRepository agents;

    @Resource
    TimerService timers;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @PostConstruct
    void start() {
        for (UUID id : index.markBuilt()) {
            applyFromDatabase(id);
        }
        reconcile();
        long every = Duration.ofMinutes(Math.max(1, config.searchReconcileMinutes)).toMillis();
        timers.createIntervalTimer(every, every, new TimerConfig("search-reconcile", false));
    }

    @Timeout
    void round() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The search index could not be reconciled this round", e);
        }
    }

    public Result reconcile() {
        var database = new HashMap<UUID, SearchIndex.Stamp>();
        List<Object[]> rows = em.createQuery("SELECT a.id, a.currentVersionId, a.updatedAt FROM Agent a "
                + "WHERE a.status = :status", Object[].class).setParameter("status", AgentStatus.ACTIVE).getResultList();
        for (Object[] row : rows) {
            if (row[1] != null) {
                database.put((UUID) row[0], new SearchIndex.Stamp((UUID) row[1], (Instant) row[2]));
            }
        }
        var diff = SearchIndex.diff(database, index.stamps());
        diff.apply().forEach(this::applyFromDatabase);
        diff.remove().forEach(index::remove);
        if (!diff.empty()) {
            LOG.info(() -> "Search index reconciled: " + diff.apply().size() + " indexed again, "
                    + diff.remove().size() + " removed");
        }
        return new Result(diff.apply().size(), diff.remove().size());
    }

    private void applyFromDatabase(UUID id) {
        agents.find(id).ifPresentOrElse(a -> index.apply(a, agents.current(a).orElse(null)), () -> index.remove(id));
    }
}
