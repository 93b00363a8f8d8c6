package dev.atrium.platform.mail;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.platform.events.ApplicationEvents;

/**
 * Outgoing mail as a use case: a mail is recorded in the caller's transaction with its {@link MailQueued} event,
 * which the outbox relay hands to the {@value #QUEUE} queue after the commit; {@link MailDeliveryHandler} sends it
 * from there.
 */
@Stateless
public class MailService {

    public static final String QUEUE = "mail";

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    ApplicationEvents events;

    @Inject
    Clock clock;

    /** Records a plain-text mail for sending and returns its id. Nothing is sent if the caller rolls back. */
    public UUID queue(String to, String subject, String text) {
        var mail = new OutgoingMail(to, subject, text, clock.instant());
        em.persist(mail);
        events.publish(new MailQueued(mail.id()));
        return mail.id();
    }

    public Optional<OutgoingMail> find(UUID id) {
        return Optional.ofNullable(em.find(OutgoingMail.class, id));
    }

    /** The newest mail to this address, whatever its status. */
    public Optional<OutgoingMail> latestTo(String recipient) {
        return em.createNamedQuery(OutgoingMail.LATEST_TO, OutgoingMail.class)
                .setParameter("recipient", recipient)
                .setMaxResults(1)
                .getResultStream()
                .findFirst();
    }

    public void markSent(UUID id) {
        load(id).markSent(clock.instant());
    }

    public void recordFailure(UUID id, String error, boolean lastAttempt) {
        load(id).recordFailure(error, lastAttempt);
    }

    private OutgoingMail load(UUID id) {
        var mail = em.find(OutgoingMail.class, id);
        if (mail == null) {
            throw new IllegalStateException("No outgoing mail " + id);
        }
        return mail;
    }
}
