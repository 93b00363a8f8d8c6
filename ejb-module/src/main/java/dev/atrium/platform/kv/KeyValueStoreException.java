package dev.atrium.platform.kv;

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
}
