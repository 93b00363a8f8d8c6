package dev.atrium.sandbox;

/** The sandbox will not run this spec here: the limits cannot be enforced, or the sandbox cannot start. */
public class SandboxRefused extends RuntimeException {

    public SandboxRefused(String message) {
        super(message);
    }

    public SandboxRefused(String message, Throwable cause) {
        super(message, cause);
    }
}
