package dev.atrium.ai.control.files;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.messaging.Listener;

/**
 * The uploads to parse, {@link AiConfig#fileParseWorkers} at once (an annotation can only repeat its key and default:
 * MaxSessionTest keeps them equal).
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = FileService.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        // the embedded broker may still be starting: the activation waits for it, quietly, up to 5 min
        @ActivationConfigProperty(propertyName = "initialConnectAttempts", propertyValue = "3000"),
        @ActivationConfigProperty(propertyName = "retryInterval", propertyValue = "100"),
        @ActivationConfigProperty(propertyName = "maxSession",
                propertyValue = "${MPCONFIG=atrium.files.parse-workers:2}")})
public class FileParseListener extends Listener.OfQueue {

    @Override
    protected String destination() {
        return FileService.QUEUE;
    }
}
