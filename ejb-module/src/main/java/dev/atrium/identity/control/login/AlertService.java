package dev.atrium.identity.control.login;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

import dev.atrium.identity.control.IdentityConfig;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.mail.MailService;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Security alerts: a signal raised for a subject ({@code address:<ip>}, {@code user:<id>}, {@code all}) fires once
 * per episode. The first raise sets a cool-down key in the shared store, so every instance agrees, and writes the
 * record, an audit entry, the metric {@code atrium_security_alerts_total{kind}}, a {@code SECURITY ALERT} log line
 * and a mail to every active administrator; raises during the cool-down only count on the open record.
 * <p>A repeat is counted in the shared store, not on the record: a storm of repeats (one user refreshing a token
 * thousands of times a minute) would otherwise queue every request behind one row lock. The counted repeats are
 * folded into the record when alerts are listed or acknowledged, before the subject's next episode opens, and at
 * every {@value #FOLD_EVERY}th repeat, so a listing always shows the exact count. A repeat costs one round trip to
 * the store ({@link KeyValueStore#beginOrRepeat}) and no transaction; only a new episode and a fold begin one.
 */
@Stateless
public class AlertService {

    private static final Logger LOG = Logger.getLogger(AlertService.class.getName());
    static final int FOLD_EVERY = 100;
    /** Long past any cool-down: repeats nobody listed for a week are forgotten. */
    private static final Duration REPEATS_KEPT = Duration.ofDays(7);

    static final Catalog<SecurityAlert> CATALOG = Catalog.of(SecurityAlert.class)
            .id("id", Long.class)
            // the list conventions' created_at is when the episode began
            .createdAt("firstSeen")
            .filterable("kind", "kind", String.class)
            .filterable("status", "status", String.class)
            .filterable("subject", "subject", String.class);

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    @EJB
    MailService mail;

    @EJB
    AuditService audit;

    /** This bean through the container, so that opening and folding get their own transactions. */
    @EJB
    AlertService self;

    @Inject
    @ConfigProperties
    IdentityConfig config;

    /**
     * Raises the signal. A new episode's alert is written in a transaction of its own, so an alert about a failed
     * login stays although the login rolls back. Answers the new alert, or empty when this subject's episode is
     * already under way. Outside the caller's transaction, so that no failure here can roll it back.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Optional<SecurityAlert> raise(String kind, String subject, String details) {
        var now = clock.instant();
        var cooldown = Duration.ofMinutes(config.alertsCooldownMinutes);
        long repeats = store.beginOrRepeat("alert:cool:" + kind + ":" + subject, cooldown,
                repeatKey("count", kind, subject), repeatKey("last", kind, subject),
                Long.toString(now.toEpochMilli()), REPEATS_KEPT);
        if (repeats > 0) {
            if (repeats % FOLD_EVERY == 0) {
                self.foldOpen(kind, subject);
            }
            return Optional.empty();
        }
        return Optional.of(self.open(kind, subject, details, now));
    }

    /** The first raise of an episode: the record, its audit entry, the metric, the log line and the mails. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public SecurityAlert open(String kind, String subject, String details, Instant now) {
        // repeats of the episode that ended belong to its record, not to the new one
        openAlert(kind, subject).ifPresent(this::fold);
        var alert = new SecurityAlert(kind, subject, details, now);
        em.persist(alert);
        audit.record(AuditAction.SECURITY_ALERT, userOf(subject), new RequestOrigin(addressOf(subject), ""), true);
        metrics.counter("atrium_security_alerts_total", new Tag("kind", kind)).inc();
        LOG.warning(() -> "SECURITY ALERT " + kind + ": " + details);
        for (var admin : administrators()) {
            mail.queue(admin.email().value(), "[Atrium] Security alert: " + kind,
                    "A security alert was raised.\n\nKind: " + kind + "\nSubject: " + subject + "\nDetails: "
                            + details + "\nFirst seen: " + now
                            + "\n\nList and acknowledge open alerts with GET /api/admin/alerts?status=open.\n");
        }
        return alert;
    }

    /** Brings the open record of this subject's episode up to date with the repeats counted so far. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void foldOpen(String kind, String subject) {
        openAlert(kind, subject).ifPresent(this::fold);
    }

    public Listing<SecurityAlert> list(ListQuery query) {
        var listing = new EntityQuery<>(em, CATALOG).list(query);
        listing.items().stream().filter(SecurityAlert::isOpen).forEach(this::fold);
        return listing;
    }

    /** Acknowledges the alert; acknowledging it again changes nothing. 404 when there is no such alert. */
    public SecurityAlert acknowledge(long id, long byUserId, RequestOrigin origin) {
        var alert = Optional.ofNullable(em.find(SecurityAlert.class, id))
                .orElseThrow(() -> BusinessException.notFound("alert"));
        if (alert.isOpen()) {
            fold(alert);
        }
        if (alert.acknowledge(byUserId, clock.instant())) {
            audit.record(AuditAction.SECURITY_ALERT_ACK, userOf(alert.subject()), byUserId, origin, true);
        }
        return alert;
    }

    private Optional<SecurityAlert> openAlert(String kind, String subject) {
        return em.createQuery("select a from SecurityAlert a where a.kind = :kind and a.subject = :subject"
                        + " and a.status = :status order by a.id desc", SecurityAlert.class)
                .setParameter("kind", kind).setParameter("subject", subject)
                .setParameter("status", SecurityAlert.OPEN)
                .setMaxResults(1).getResultStream().findFirst();
    }

    /** Moves the repeats counted in the store onto the record; a repeat is taken once, by one instance. */
    void fold(SecurityAlert alert) {
        long repeats = store.getAndDelete(repeatKey("count", alert.kind(), alert.subject()))
                .map(AlertService::number).orElse(0L);
        if (repeats > 0) {
            Instant last = store.get(repeatKey("last", alert.kind(), alert.subject())).map(AlertService::number)
                    .map(Instant::ofEpochMilli).orElse(clock.instant());
            alert.seenAgain(last, repeats);
        }
    }

    private static String repeatKey(String part, String kind, String subject) {
        return "alert:repeats:" + part + ":" + kind + ":" + subject;
    }

    /** A value this class wrote, or 0 for anything else (the store is shared). */
    private static long number(String value) {
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException notOurs) {
            return 0;
        }
    }

    private List<User> administrators() {
        return em.createQuery("select distinct u from User u join u.roles r where r.name = 'admin'", User.class)
                .getResultStream().filter(User::isActive).toList();
    }

    static Long userOf(String subject) {
        if (subject.startsWith("user:")) {
            try {
                return Long.valueOf(subject.substring(5));
            } catch (NumberFormatException notAUser) {
                return null;
            }
        }
        return null;
    }

    static String addressOf(String subject) {
        return subject.startsWith("address:") ? subject.substring(8) : "";
    }
}
