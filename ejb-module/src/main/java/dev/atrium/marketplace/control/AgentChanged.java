package dev.atrium.marketplace.control;

import java.util.UUID;

import dev.atrium.marketplace.control.search.AgentChangeHandler;
import dev.atrium.platform.events.ApplicationEvent;

/** An agent's listing changed: every instance's {@link AgentChangeHandler} brings its search index up to date. */
public record AgentChanged(UUID agentId) implements ApplicationEvent {

    @Override
    public String destination() {
        return AgentChangeHandler.TOPIC;
    }

    @Override
    public boolean broadcast() {
        return true;
    }

    @Override
    public String payload() {
        return agentId.toString();
    }
}
