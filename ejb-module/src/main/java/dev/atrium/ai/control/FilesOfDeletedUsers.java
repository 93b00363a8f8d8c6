package dev.atrium.ai.control;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import dev.atrium.identity.control.UserDeleted;
import dev.atrium.platform.objects.ObjectStore;

/**
 * A deleted user's file rows go with the user (the foreign key cascades); their bytes lie outside the database, under
 * the user's prefix {@code <user_id>/} of the object store, and are removed here once the deletion has committed.
 */
@ApplicationScoped
public class FilesOfDeletedUsers {

    private static final Logger LOG = Logger.getLogger(FilesOfDeletedUsers.class.getName());

    @Inject
    ObjectStore objects;

    void remove(@Observes(during = TransactionPhase.AFTER_SUCCESS) UserDeleted deleted) {
        String prefix = deleted.userId() + "/";
        int removed = 0;
        try {
            for (String key : objects.list(prefix)) {
                if (objects.delete(key)) {
                    removed++;
                }
            }
        } catch (RuntimeException e) {
            // the deletion stands; what is left is unreachable and does not block anything
            LOG.log(Level.WARNING, "Could not remove every stored file of deleted user " + deleted.userId(), e);
            return;
        }
        int count = removed;
        LOG.info(() -> "Removed " + count + " stored files of deleted user " + deleted.userId());
    }
}
