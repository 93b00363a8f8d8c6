package dev.atrium.platform.messaging;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.ai.control.FileService;

/** The uploads to parse (`atrium.files.parse-workers`'s default: 2 at once). */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = FileService.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        @ActivationConfigProperty(propertyName = "connectionFactoryLookup", propertyValue = Listener.BROKER),
        @ActivationConfigProperty(propertyName = "maxSession",
                propertyValue = "${MPCONFIG=atrium.files.parse-workers:2}")})
public class FileParseListener extends Listener.OfQueue {

    @Override
    String destination() {
        return FileService.QUEUE;
    }
}
