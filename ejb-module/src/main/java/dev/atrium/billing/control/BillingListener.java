package dev.atrium.billing.control;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.marketplace.control.UsageRecorded;
import dev.atrium.platform.messaging.Listener;

/**
 * The usage events to bill, {@link BillingConfig#queueConsumers} at once (an annotation can only repeat its key and
 * default: MaxSessionTest keeps them equal), up to {@link BillingConfig#queueBatchSize} to a message.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = UsageRecorded.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        // the embedded broker may still be starting: the activation waits for it, quietly, up to 5 min
        @ActivationConfigProperty(propertyName = "initialConnectAttempts", propertyValue = "3000"),
        @ActivationConfigProperty(propertyName = "retryInterval", propertyValue = "100"),
        @ActivationConfigProperty(propertyName = "maxSession",
                propertyValue = "${MPCONFIG=atrium.billing.queue.consumers:2}")})
public class BillingListener extends Listener.OfQueue {

    @Override
    protected String destination() {
        return UsageRecorded.QUEUE;
    }
}
