package dev.atrium.billing.control;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.marketplace.control.UsageRecorded;
import dev.atrium.platform.messaging.MessageHandler;

/**
 * The {@value UsageRecorded#QUEUE} queue's consumer: each message names one usage record to bill; waiting messages
 * are billed a hundred at a time in one transaction, and one that fails is retried on its own.
 */
@ApplicationScoped
public class BillingQueue implements MessageHandler {

    @Inject
    UsageBilling billing;

    @Override
    public String queue() {
        return UsageRecorded.QUEUE;
    }

    @Override
    public int concurrency() {
        return 2;
    }

    /** Up to this many usage records are billed in one transaction, each account locked once for all of them. */
    @Override
    public int batchSize() {
        return 100;
    }

    @Override
    public void onMessage(String body, int deliveryCount) {
        billing.bill(UUID.fromString(body.trim()));
    }

    @Override
    public void onMessages(java.util.List<String> bodies) {
        billing.billAll(bodies.stream().map(b -> UUID.fromString(b.trim())).toList());
    }
}
