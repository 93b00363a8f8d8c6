package dev.atrium.marketplace.control.search;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.platform.messaging.Listener;


/**
 * The marketplace's agent changes: a non-durable subscription per instance, so every instance keeps its index
 * current.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = AgentChangeHandler.TOPIC),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        // the embedded broker may still be starting: the activation waits for it, quietly, up to 5 min
        @ActivationConfigProperty(propertyName = "initialConnectAttempts", propertyValue = "3000"),
        @ActivationConfigProperty(propertyName = "retryInterval", propertyValue = "100"),
        @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "NonDurable"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1")})
public class AgentChangesListener extends Listener.OfTopic {

    @Override
    protected String destination() {
        return AgentChangeHandler.TOPIC;
    }
}
