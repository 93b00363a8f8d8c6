package dev.atrium.marketplace.control.submission;

import java.time.Clock;

import jakarta.persistence.EntityManager;

import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.AgentRepository;

/** The review service wired as the container wires it, writing with the test's entity manager. */
public final class Reviews {

    private Reviews() {
    }

    public static ReviewService service(EntityManager em, AgentRepository agents, AgentChanges changes, Clock clock) {
        var reviews = new ReviewService();
        reviews.em = em;
        reviews.agents = agents;
        reviews.changes = changes;
        reviews.clock = clock;
        return reviews;
    }
}
