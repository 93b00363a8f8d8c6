package dev.atrium.platform.objects;

/** The object store could not be reached or refused an operation. */
public class ObjectStoreException extends RuntimeException {

    public ObjectStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
