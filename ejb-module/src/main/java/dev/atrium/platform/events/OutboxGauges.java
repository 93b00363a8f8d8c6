package dev.atrium.platform.events;

import java.time.Clock;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The outbox's backlog as gauges, read from the table when {@code /metrics} is scraped (nothing polls between
 * scrapes): {@code atrium_outbox_pending} events not yet relayed and {@code atrium_outbox_oldest_age_seconds}, how
 * long the oldest of them has waited (0 when none waits). A backlog that grows while its age climbs means the relay
 * cannot reach the broker. A failed query reads as -1, so a scrape never fails for the database.
 */
@ApplicationScoped
public class OutboxGauges {

    private static final Logger LOG = Logger.getLogger(OutboxGauges.class.getName());

    @EJB
    OutboxStore store;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    void register(@Observes @Initialized(ApplicationScoped.class) Object event) {
        metrics.gauge("atrium_outbox_pending", this, OutboxGauges::pending);
        metrics.gauge("atrium_outbox_oldest_age_seconds", this, OutboxGauges::oldestAgeSeconds);
    }

    long pending() {
        try {
            return store.pending();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "The outbox backlog could not be read", e);
            return -1;
        }
    }

    double oldestAgeSeconds() {
        try {
            return store.oldestPending()
                    .map(created -> Math.max(0, Duration.between(created, clock.instant()).toMillis() / 1000.0))
                    .orElse(0.0);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "The outbox's oldest event could not be read", e);
            return -1;
        }
    }
}
