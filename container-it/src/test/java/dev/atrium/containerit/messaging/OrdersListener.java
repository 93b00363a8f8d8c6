package dev.atrium.containerit.messaging;

import java.time.Instant;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;

/**
 * A message-driven bean with the product's activation settings (MailListener's): records each delivery and throws
 * for a body starting with {@value #POISON}, which rolls the delivery's transaction back.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = OrdersListener.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "initialConnectAttempts", propertyValue = "3000"),
        @ActivationConfigProperty(propertyName = "retryInterval", propertyValue = "100"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1")})
public class OrdersListener implements MessageListener {

    static final String QUEUE = "arq.orders";
    static final String POISON = "poison";

    @Inject
    DeliveryLog log;

    @Override
    public void onMessage(Message message) {
        try {
            String body = ((TextMessage) message).getText();
            log.add(new DeliveryLog.Delivery(body, message.getIntProperty("JMSXDeliveryCount"), Instant.now()));
            if (body.startsWith(POISON)) {
                throw new IllegalStateException("Refusing " + body);
            }
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }
}
