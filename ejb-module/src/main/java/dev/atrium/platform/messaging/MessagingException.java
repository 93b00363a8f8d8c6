package dev.atrium.platform.messaging;

/** The broker could not be reached or refused an operation. */
public class MessagingException extends RuntimeException {

    public MessagingException(String message, Throwable cause) {
        super(message, cause);
    }
}
