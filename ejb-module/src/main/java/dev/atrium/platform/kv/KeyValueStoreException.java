package dev.atrium.platform.kv;

/** A store operation failed: the backend is unreachable, or the entry cannot take the operation. */
public class KeyValueStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KeyValueStoreException(String message) {
        super(message);
    }

    public KeyValueStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
