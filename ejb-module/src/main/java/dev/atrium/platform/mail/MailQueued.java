package dev.atrium.platform.mail;

import java.util.UUID;

import dev.atrium.platform.events.ApplicationEvent;

/** A mail was recorded for sending: {@link MailDeliveryHandler} sends it from the {@value MailService#QUEUE} queue. */
public record MailQueued(UUID mailId) implements ApplicationEvent {

    @Override
    public String destination() {
        return MailService.QUEUE;
    }

    @Override
    public String payload() {
        return mailId.toString();
    }
}
