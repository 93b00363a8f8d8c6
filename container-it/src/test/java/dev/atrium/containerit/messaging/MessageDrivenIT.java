package dev.atrium.containerit.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;

import org.assertj.core.api.Assertions;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.TargetsContainer;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.containerit.Await;
import dev.atrium.containerit.Libraries;
import dev.atrium.platform.messaging.BrokerConnection;
import dev.atrium.platform.messaging.Messaging;
import dev.atrium.platform.messaging.MessagingException;
import dev.atrium.platform.telemetry.TraceParents;

/**
 * A message-driven bean on Artemis's resource adapter, fed by the product's embedded broker: a message is delivered;
 * one whose delivery keeps failing is delivered again after the broker's redelivery delay and, after its last
 * attempt, moved to the dead-letter queue.
 */
@ExtendWith(ArquillianExtension.class)
class MessageDrivenIT {

    @Deployment
    @TargetsContainer("micro-artemis")
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "messaging.war")
                .addClasses(TestBroker.class, DeliveryLog.class, OrdersListener.class, Await.class)
                .addClasses(BrokerConnection.class, Messaging.class, MessagingException.class, TraceParents.class)
                .addAsWebInfResource("messaging/glassfish-ejb-jar.xml", "glassfish-ejb-jar.xml")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                .addAsLibraries(Libraries.jarsOf(Assertions.class));
    }

    @EJB
    TestBroker broker;

    @Inject
    DeliveryLog log;

    @Test
    void whenMessageIsSentThenListenerReceivesItOnce() {
        String body = "order-" + UUID.randomUUID();

        broker.send(OrdersListener.QUEUE, body);

        Await.until("the delivery of " + body, Duration.ofSeconds(60), () -> !log.of(body).isEmpty());
        assertThat(log.of(body)).singleElement().extracting(DeliveryLog.Delivery::count).isEqualTo(1);
    }

    @Test
    void whenListenerKeepsFailingThenMessageIsRedeliveredAndThenDeadLettered() {
        String body = OrdersListener.POISON + "-" + UUID.randomUUID();
        long deadBefore = broker.depth(BrokerConnection.DEAD_LETTER_QUEUE);

        broker.send(OrdersListener.QUEUE, body);

        // the product's broker: 3 deliveries, 5 s apart, then the dead-letter queue
        Await.until("the dead-lettering of " + body, Duration.ofSeconds(60),
                () -> broker.depth(BrokerConnection.DEAD_LETTER_QUEUE) == deadBefore + 1);
        var deliveries = log.of(body);
        assertThat(deliveries).extracting(DeliveryLog.Delivery::count).containsExactly(1, 2, 3);
        assertThat(Duration.between(deliveries.get(0).at(), deliveries.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(4));
    }
}
