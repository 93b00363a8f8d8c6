package dev.atrium.marketplace.control.search;

import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.platform.messaging.TopicHandler;

/**
 * Keeps this instance's search index current: every instance receives the id of each agent whose listing changed
 * and applies the agent's current state (indexed when active, removed otherwise). Idempotent: applying twice
 * gives the same index.
 */
@ApplicationScoped
public class AgentChangeHandler implements TopicHandler {

    public static final String TOPIC = "marketplace.agents";

    @EJB
    AgentRepository agents;

    @Inject
    SearchIndex index;

    @Override
    public String topic() {
        return TOPIC;
    }

    @Override
    public void onMessage(String body, int deliveryCount) {
        UUID id = UUID.fromString(body.trim());
        if (index.deferIfBuilding(id)) {
            return;
        }
        agents.find(id).ifPresentOrElse(a -> index.apply(a, agents.current(a).orElse(null)), () -> index.remove(id));
    }
}
