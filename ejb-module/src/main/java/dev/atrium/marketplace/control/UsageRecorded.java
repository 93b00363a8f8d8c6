package dev.atrium.marketplace.control;

import java.util.UUID;

import dev.atrium.platform.events.ApplicationEvent;

/**
 * A usage record was written (one invocation, priced): the billing consumer of the {@value #QUEUE} queue charges
 * the caller's balance and credits the developer from the record it names.
 */
public record UsageRecorded(UUID usageId) implements ApplicationEvent {

    public static final String QUEUE = "billing";

    @Override
    public String destination() {
        return QUEUE;
    }

    @Override
    public String payload() {
        return usageId.toString();
    }
}
