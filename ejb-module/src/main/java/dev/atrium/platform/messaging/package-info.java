/**
 * Messaging on Apache Artemis, the same on Payara Micro and Payara Server. {@code MessagingRuntime} runs the embedded
 * broker (or connects to the one at {@code atrium.broker.url}) and sends through the application's client
 * ({@code BrokerConnection}), or through the server's resources where the EAR binds them ({@code ServerMessaging}).
 * Message-driven beans on Artemis's resource adapter consume, one per queue and one for the topic ({@code Listener}
 * and its subclasses, each in the context that consumes, beside its handler; {@code MailListener} here): each hands a delivery to its queue's {@code MessageHandler} or the topic's
 * {@code TopicHandler} outside the delivery's transaction ({@code OutsideTheDelivery}), with the batch queues' packing
 * ({@code Deliveries}) and a consumer span ({@code ConsumerTrace}). Owns nothing else: what a message means stays with
 * its handler, redelivery with the broker's address settings (3 deliveries 5 s apart, then {@code DLQ}).
 */
package dev.atrium.platform.messaging;
