package dev.atrium.platform.messaging;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.marketplace.control.AgentChangeHandler;

/**
 * The marketplace's agent changes: a non-durable subscription per instance, so every instance keeps its index
 * current.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = AgentChangeHandler.TOPIC),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "connectionFactoryLookup", propertyValue = Listener.BROKER),
        @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "NonDurable"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1")})
public class AgentChangesListener extends Listener.OfTopic {

    @Override
    String destination() {
        return AgentChangeHandler.TOPIC;
    }
}
