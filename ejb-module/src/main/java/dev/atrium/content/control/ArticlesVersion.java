package dev.atrium.content.control;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.atrium.platform.kv.KeyValueStore;
import dev.atrium.platform.persistence.AfterCommit;

/**
 * A version of everything an article list shows, for caches of rendered lists: it changes after every committed
 * write to an article (its tags and the published counts of tags included, as they change only with articles). It
 * has two parts: a random value in the shared store, replaced on every change, so every instance sees another's
 * writes (random, so a store that restarted empty does not count up to a version seen before), and a counter of
 * this instance, so its own writes count even when the store cannot be reached. A version read before a list is made is the one to
 * file the list under: a write that commits meanwhile changes it afterwards, so such a list is never served again.
 */
@ApplicationScoped
public class ArticlesVersion {

    private static final Logger LOG = Logger.getLogger(ArticlesVersion.class.getName());
    static final String KEY = "content:articles:version";

    @Inject
    KeyValueStore store;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    private final AtomicLong local = new AtomicLong();

    /** The version now; empty when the shared store cannot be reached (no cached list may be used then). */
    public Optional<String> current() {
        long mine = local.get();
        try {
            return Optional.of(store.get(KEY).orElse("0") + "." + mine);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Article list version unavailable", e);
            return Optional.empty();
        }
    }

    /**
     * Changes the version once the current transaction commits (at once outside a transaction); once per
     * transaction however many articles it writes.
     */
    public void changedAfterCommit() {
        if (transactions != null && transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
            if (transactions.getResource(KEY) != null) {
                return;
            }
            transactions.putResource(KEY, Boolean.TRUE);
        }
        AfterCommit.run(transactions, this::changed);
    }

    private void changed() {
        local.incrementAndGet();
        try {
            store.set(KEY, UUID.randomUUID().toString(), Duration.ZERO);
        } catch (RuntimeException e) {
            // other instances keep their lists until these expire (atrium.content.list-cache-seconds)
            LOG.warning("An article changed but the shared store could not be told; other instances may show "
                    + "their cached lists until these expire");
        }
    }
}
