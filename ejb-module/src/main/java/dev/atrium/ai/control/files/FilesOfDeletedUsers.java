package dev.atrium.ai.control.files;

import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.identity.control.UserDeleted;
import dev.atrium.platform.messaging.MessageHandler;
import dev.atrium.platform.objects.ObjectStore;

/**
 * A deleted user's file rows go with the user (the foreign key cascades); their bytes lie outside the database, under
 * the user's prefix {@code <user_id>/} of the object store, and are removed here from the {@link UserDeleted} event
 * once the deletion has committed and the outbox relay has published it. Idempotent: a second delivery finds
 * nothing left under the prefix. A failing store is thrown, so the broker delivers the event again.
 */
@ApplicationScoped
public class FilesOfDeletedUsers implements MessageHandler {

    private static final Logger LOG = Logger.getLogger(FilesOfDeletedUsers.class.getName());

    @Inject
    ObjectStore objects;

    @Override
    public String queue() {
        return UserDeleted.QUEUE;
    }

    @Override
    public void onMessage(String body, int deliveryCount) {
        long userId;
        try {
            userId = Long.parseLong(body.trim());
        } catch (NumberFormatException e) {
            LOG.warning("Ignoring a user-deleted message that is no user id");
            return;
        }
        String prefix = userId + "/";
        int removed = 0;
        try {
            for (String key : objects.list(prefix)) {
                if (objects.delete(key)) {
                    removed++;
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not remove every stored file of deleted user " + userId
                    + " (delivery " + deliveryCount + ")", e);
            throw e;
        }
        int count = removed;
        LOG.info(() -> "Removed " + count + " stored files of deleted user " + userId);
    }
}
