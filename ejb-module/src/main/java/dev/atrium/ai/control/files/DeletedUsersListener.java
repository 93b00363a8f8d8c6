package dev.atrium.ai.control.files;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.identity.control.UserDeleted;
import dev.atrium.platform.messaging.Listener;

/** The deleted users whose files go, one at a time. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = UserDeleted.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        // the embedded broker may still be starting: the activation waits for it, quietly, up to 5 min
        @ActivationConfigProperty(propertyName = "initialConnectAttempts", propertyValue = "3000"),
        @ActivationConfigProperty(propertyName = "retryInterval", propertyValue = "100"),
        @ActivationConfigProperty(propertyName = "maxSession", propertyValue = "1")})
public class DeletedUsersListener extends Listener.OfQueue {

    @Override
    protected String destination() {
        return UserDeleted.QUEUE;
    }
}
