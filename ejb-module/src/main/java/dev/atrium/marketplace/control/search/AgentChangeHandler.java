package dev.atrium.marketplace.control.search;

import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.runtime.WarmSandboxes;
import dev.atrium.platform.messaging.TopicHandler;

/**
 * Keeps this instance's search index current: every instance receives the id of each agent whose listing changed
 * and applies the agent's current state (indexed when active, removed otherwise). Idempotent: applying twice
 * gives the same index. The agent's sandboxes made ahead on this instance are removed too: what the next call runs
 * is made anew.
 */
@ApplicationScoped
public class AgentChangeHandler implements TopicHandler {

    public static final String TOPIC = "marketplace.agents";

    @EJB
    AgentRepository agents;

    @Inject
    SearchIndex index;

    @Inject
    WarmSandboxes warm;

    @Override
    public String topic() {
        return TOPIC;
    }

    @Override
    public void onMessage(String body, int deliveryCount) {
        UUID id = UUID.fromString(body.trim());
        warm.drain(id);
        if (index.deferIfBuilding(id)) {
            return;
        }
        agents.find(id).ifPresentOrElse(a -> index.apply(a, agents.current(a).orElse(null)), () -> index.remove(id));
    }
}
