package dev.atrium.billing.control;

import java.util.List;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.UsageRecorded;
import dev.atrium.platform.messaging.MessageHandler;

/**
 * The {@value UsageRecorded#QUEUE} queue's consumer: each message names one usage record to bill; waiting messages
 * are billed up to {@code atrium.billing.queue.batch-size} at a time in one transaction by
 * {@code atrium.billing.queue.consumers} consumers per instance, and one that fails is retried on its own.
 */
@ApplicationScoped
public class BillingQueue implements MessageHandler {

    @EJB
    UsageBilling billing;

    @Inject
    @ConfigProperties
    BillingConfig config;

    @Override
    public String queue() {
        return UsageRecorded.QUEUE;
    }

    /** Up to this many usage records are billed in one transaction, each account moved once for all of them. */
    @Override
    public int batchSize() {
        return config.queueBatchSize;
    }

    @Override
    public void onMessage(String body, int deliveryCount) {
        billing.bill(UUID.fromString(body.trim()));
    }

    @Override
    public void onMessages(List<String> bodies) {
        billing.billAll(bodies.stream().map(b -> UUID.fromString(b.trim())).toList());
    }
}
