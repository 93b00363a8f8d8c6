package dev.atrium.platform.messaging;

/**
 * A subscriber to one topic. Implementations are CDI beans; the topic's message-driven bean gives each one a
 * non-durable subscription per application instance, so every instance receives every message published while it runs
 * (for example, to keep an in-memory or per-instance index current). Messages published while an instance is
 * down are not kept for it. A handler that throws gets the message again, as with {@link MessageHandler}.
 */
public interface TopicHandler {

    /** The topic name, for example {@code content.changed}. */
    String topic();

    /** Handles one message body. {@code deliveryCount} is 1 on the first delivery. Throwing asks for redelivery. */
    void onMessage(String body, int deliveryCount) throws Exception;
}
