package dev.atrium.platform.messaging;

import jakarta.ejb.ApplicationException;

/**
 * The broker could not be reached or refused an operation. Thrown from an EJB ({@link ServerMessaging}) it rolls the
 * bean's transaction back and reaches the caller as itself, so callers catch it on both runtimes alike.
 */
@ApplicationException(rollback = true)
public class MessagingException extends RuntimeException {

    public MessagingException(String message, Throwable cause) {
        super(message, cause);
    }
}
