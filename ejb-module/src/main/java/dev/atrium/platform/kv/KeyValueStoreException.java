package dev.atrium.platform.kv;

import java.util.Optional;

import jakarta.ejb.ApplicationException;

/**
 * A store operation failed: the backend is unreachable, or the entry cannot take the operation. An application
 * exception, so an enterprise bean passes it on as it is (its transaction rolled back) and the container does not log
 * it as a system failure with its stack: the request's answer is 503 and one WARNING line (ErrorMapper).
 */
@ApplicationException(rollback = true)
public class KeyValueStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KeyValueStoreException(String message) {
        super(message);
    }

    public KeyValueStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The store's failure behind {@code thrown}, itself or a cause of it (a container may have wrapped it). */
    public static Optional<KeyValueStoreException> behind(Throwable thrown) {
        for (Throwable c = thrown; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof KeyValueStoreException store) {
                return Optional.of(store);
            }
        }
        return Optional.empty();
    }
}
