package dev.atrium.billing.control;

import java.time.Clock;
import java.time.Duration;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;

/**
 * No hold outlives its call: every five minutes the open holds that no usage record claimed and that are older than
 * the longest possible call plus a margin ({@code atrium.billing.holds.stale-after-seconds}, 900: a run's 120 s
 * ceiling, a chain of three, the waits for a slot) are released, each with an audit entry ({@code hold_release}) on
 * its user. Such a hold is left only by a call that died between its hold and its record (a crash, a lost instance):
 * every refusal in the gateway releases its own at once.
 */
@Singleton
public class HoldSweeper {

    static final int BATCH = 500;
    private static final Logger LOG = Logger.getLogger(HoldSweeper.class.getName());

    @EJB
    Balances balances;

    @EJB
    AuditService audit;

    @EJB
    Ledger ledger;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    BillingConfig config;

    @Schedule(hour = "*", minute = "*/5", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void everyFiveMinutes() {
        sweep();
    }

    /** Releases the stale holds; answers how many. */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public int sweep() {
        var before = clock.instant().minus(Duration.ofSeconds(Math.max(60, config.holdsStaleAfterSeconds)));
        int swept = 0;
        while (true) {
            var released = balances.releaseStale(before, BATCH);
            for (var hold : released) {
                Long owner = ledger.owner(hold.accountId()).orElse(null);
                audit.record(AuditAction.HOLD_RELEASE, owner, RequestOrigin.UNKNOWN, true);
                LOG.info(() -> "Released hold " + hold.id() + " of " + hold.amount().toPlainString()
                        + " USD, placed at " + hold.createdAt() + " and never claimed by a usage record");
            }
            swept += released.size();
            if (released.size() < BATCH) {
                return swept;
            }
        }
    }
}
