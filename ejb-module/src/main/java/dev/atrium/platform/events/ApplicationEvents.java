package dev.atrium.platform.events;

/**
 * How the application announces events. {@link #publish} must run inside the business transaction: the event is a
 * row of that transaction (the outbox), so it exists exactly when the change it announces exists, and the relay
 * delivers it to the broker after the commit, retrying until the broker takes it. Observers of the event type
 * ({@code @Observes}) run at once, inside the transaction, for work that must commit or roll back with it.
 */
public interface ApplicationEvents {

    void publish(ApplicationEvent event);
}
