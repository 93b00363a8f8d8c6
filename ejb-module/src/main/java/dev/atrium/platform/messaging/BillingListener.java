package dev.atrium.platform.messaging;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.marketplace.control.UsageRecorded;

/** The usage events to bill (`atrium.billing.queue.consumers`'s default: 2 at once), up to 500 to a message. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = UsageRecorded.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "connectionFactoryLookup", propertyValue = Listener.BROKER),
        @ActivationConfigProperty(propertyName = "maxSession",
                propertyValue = "${MPCONFIG=atrium.billing.queue.consumers:2}")})
public class BillingListener extends Listener.OfQueue {

    @Override
    String destination() {
        return UsageRecorded.QUEUE;
    }
}
