package dev.atrium.platform.mail;

import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.platform.messaging.MessageHandler;

/**
 * Sends the mail whose id arrives on the {@value MailService#QUEUE} queue. Each step runs in a short
 * transaction of its own through {@link MailService}, never around the SMTP conversation. A failure is
 * recorded on the mail and rethrown, so the broker delivers the id again; the third failed delivery marks the
 * mail {@code FAILED}. A mail already sent is not sent again.
 */
@ApplicationScoped
public class MailDeliveryHandler implements MessageHandler {

    static final int LAST_DELIVERY = 3;

    private static final Logger LOG = Logger.getLogger(MailDeliveryHandler.class.getName());

    @EJB
    MailService mails;

    @Inject
    MailTransport transport;

    @Override
    public String queue() {
        return MailService.QUEUE;
    }

    @Override
    public void onMessage(String body, int deliveryCount) throws Exception {
        var id = UUID.fromString(body);
        var mail = mails.find(id);
        if (mail.isEmpty()) {
            LOG.warning(() -> "Outgoing mail " + id + " does not exist; nothing to send");
            return;
        }
        if (mail.get().status() == OutgoingMail.Status.SENT) {
            return;
        }
        try {
            transport.send(mail.get().toMessage());
        } catch (MailDeliveryException | RuntimeException e) {
            var error = e instanceof MailDeliveryException ? e.getMessage() : e.toString();
            try {
                mails.recordFailure(id, error, deliveryCount >= LAST_DELIVERY);
            } catch (RuntimeException recording) {
                e.addSuppressed(recording);
            }
            throw e;
        }
        mails.markSent(id);
    }
}
