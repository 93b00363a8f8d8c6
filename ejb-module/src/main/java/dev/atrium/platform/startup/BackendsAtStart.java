package dev.atrium.platform.startup;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.mail.MailTransport;
import dev.atrium.platform.objects.ObjectStore;

/**
 * The key-value store, the object store and the mail transport are otherwise made at their first use: made at start
 * instead, so that the start log names every backend once (docs/operations.md, "A quiet start") and a wrong setting
 * shows at once.
 */
@ApplicationScoped
public class BackendsAtStart {

    void started(@Observes @Initialized(ApplicationScoped.class) Object event, KeyValueStore keyValues,
                 ObjectStore objects, MailTransport mail) {
        // a call on a contextual reference makes its instance
        keyValues.toString();
        objects.toString();
        mail.toString();
    }
}
