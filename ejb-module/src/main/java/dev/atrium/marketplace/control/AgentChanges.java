package dev.atrium.marketplace.control;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.atrium.marketplace.control.runtime.WarmSandboxes;
import dev.atrium.marketplace.control.search.SearchIndex;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.platform.events.ApplicationEvents;

/**
 * Announces that an agent's listing changed: the {@link AgentChanged} event is written with the change, and every
 * instance's index follows through the {@code marketplace.agents} topic once the relay publishes it (and removes the
 * agent's sandboxes made ahead); this instance's index and sandboxes follow at once after the commit, so that whoever made the change finds
 * it in search on their next request. Applying the same state twice changes nothing.
 */
@ApplicationScoped
public class AgentChanges {

    @Inject
    ApplicationEvents events;

    @Inject
    SearchIndex index;

    @Inject
    WarmSandboxes warm;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    @EJB
    AgentRepository agents;

    /** Called once the agent's change is made, in its transaction: the version it serves now is the one indexed. */
    public void changed(Agent agent) {
        events.publish(new AgentChanged(agent.id()));
        if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
            AgentVersion serving = agent.isActive() ? agents.current(agent).orElse(null) : null;
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        warm.drain(agent.id());
                    }
                    if (status == Status.STATUS_COMMITTED && !index.deferIfBuilding(agent.id())) {
                        index.apply(agent, serving);
                    }
                }
            });
        }
    }
}
