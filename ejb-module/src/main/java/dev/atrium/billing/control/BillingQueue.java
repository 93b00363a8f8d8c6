package dev.atrium.billing.control;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.marketplace.control.UsageRecorded;
import dev.atrium.platform.messaging.MessageHandler;

/** The {@value UsageRecorded#QUEUE} queue's consumer: each message names one usage record to bill. */
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

    @Override
    public void onMessage(String body, int deliveryCount) {
        billing.bill(UUID.fromString(body.trim()));
    }
}
