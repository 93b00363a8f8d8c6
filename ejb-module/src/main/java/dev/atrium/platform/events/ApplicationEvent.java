package dev.atrium.platform.events;

/**
 * Something that happened in a business transaction and that other parts act on once it has committed. Each
 * context declares its events as records carrying ids (never whole objects: consumers load current state) and says
 * where each goes: a queue, where one consumer of the whole cluster handles it, or a topic every instance receives.
 */
public interface ApplicationEvent {

    /** The queue or topic name, for example {@code tasks}. */
    String destination();

    /** True for a topic (every instance), false for a queue (one consumer). */
    default boolean broadcast() {
        return false;
    }

    /** The message body the consumer receives: the id it acts on. */
    String payload();

    /** The event's type as stored and logged. */
    default String type() {
        return getClass().getSimpleName();
    }
}
