package dev.atrium.platform.mail;

/** A mail could not be handed over now; it will be tried again. */
public class MailDeliveryException extends Exception {

    public MailDeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
