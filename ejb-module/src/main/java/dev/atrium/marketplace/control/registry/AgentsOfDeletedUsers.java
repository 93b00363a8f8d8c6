package dev.atrium.marketplace.control.registry;

import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import dev.atrium.identity.control.UserDeleted;
import dev.atrium.marketplace.control.submission.ReviewService;

/**
 * A deleted user's agents leave the listing: suspended with reason {@code author_deleted} in the transaction that
 * deletes the user, so the deletion and the suspension commit or fail together.
 */
@ApplicationScoped
public class AgentsOfDeletedUsers {

    private static final Logger LOG = Logger.getLogger(AgentsOfDeletedUsers.class.getName());

    @EJB
    ReviewService reviews;

    void suspend(@Observes(during = TransactionPhase.IN_PROGRESS) UserDeleted deleted) {
        int suspended = reviews.authorDeleted(deleted.userId());
        if (suspended > 0) {
            LOG.info(() -> "Suspended " + suspended + " agent(s) of deleted user " + deleted.userId());
        }
    }
}
