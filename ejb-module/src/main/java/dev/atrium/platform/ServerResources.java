package dev.atrium.platform;

/**
 * The JNDI names of the resources the server manages for the application, defined once in
 * {@code server-config/payara/atrium.asadmin} for Payara Micro and Payara Server alike, so that an administrator
 * sizes and watches them with the server's own tools.
 */
public final class ServerResources {

    /** The thread factory of streamed chat answers (SSE and WebSocket): one thread per open stream. */
    public static final String STREAMS = "concurrent/atrium-streams";

    /**
     * The application's long-lived workers: the outbox relay, cancellation timers, password hashing.
     */
    public static final String WORKERS = "concurrent/atrium-workers";

    private ServerResources() {
    }
}
