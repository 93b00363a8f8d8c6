package dev.atrium.marketplace.control;

import java.time.Clock;
import java.time.Instant;

import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;


/**
 * The ranking score's freshness decays with time, so the stored scores of listed agents are recomputed every hour
 * (they are also recomputed whenever an agent changes). Several instances doing it at once write the same values.
 */
@Singleton
public class RankingRefresh {

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    private static final int SLICE = 500;

    @Inject
    Clock clock;

    @Inject
    AgentRepository agents;

    @Schedule(hour = "*", minute = "17", persistent = false)
    void hourly() {
        refresh();
    }

    public int refresh() {
        Instant now = clock.instant();
        int done = 0;
        java.util.UUID after = null;
        while (true) {
            var slice = agents.active(after, SLICE);
            slice.forEach(a -> a.refreshRanking(now));
            done += slice.size();
            em.flush();
            em.clear();
            if (slice.size() < SLICE) {
                return done;
            }
            after = slice.get(slice.size() - 1).id();
        }
    }
}
