package dev.atrium.marketplace.control;

import jakarta.persistence.EntityManager;

/** The agent repository wired as the container wires it, reading with the test's entity manager. */
public final class AgentRepositories {

    private AgentRepositories() {
    }

    public static AgentRepository of(EntityManager em) {
        var agents = new AgentRepository();
        agents.em = em;
        return agents;
    }
}
