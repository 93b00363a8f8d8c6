package dev.atrium.containerit.messaging;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

/** Every delivery the listener received: its body, the broker's delivery count and when. */
@ApplicationScoped
public class DeliveryLog {

    public record Delivery(String body, int count, Instant at) {
    }

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    void add(Delivery delivery) {
        deliveries.add(delivery);
    }

    public List<Delivery> of(String body) {
        return deliveries.stream().filter(d -> d.body().equals(body)).toList();
    }
}
