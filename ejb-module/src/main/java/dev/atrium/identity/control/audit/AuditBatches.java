package dev.atrium.identity.control.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;

import dev.atrium.identity.entity.AuditLog;

/**
 * Audit entries written together (group commit). A request's entry waits in a queue; the request that holds the write
 * lock writes every entry waiting, up to {@value #MOST}, in one transaction and one JDBC batch, and each request returns
 * only once its own entry is committed, as when each wrote its own. Alone, a request writes its entry at once; under
 * load, entries that came while a batch was being written go in the next, so a commit serves several requests.
 * <p>A batch that fails is written again entry by entry, so an entry the database refuses fails only its own request;
 * once two entries in a row fail alone, the database is failing and the rest of the batch fails with it.
 */
@ApplicationScoped
public class AuditBatches {

    static final int MOST = 100;

    private final ReentrantLock writing = new ReentrantLock();
    private final Queue<Pending> waiting = new ConcurrentLinkedQueue<>();

    @EJB
    AuditWriter writer;

    /** Returns once the entry is committed; throws what its write threw. */
    public void write(Supplier<AuditLog> entry) {
        var mine = new Pending(entry);
        waiting.add(mine);
        while (!mine.done) {
            writing.lock();
            try {
                if (!mine.done) {
                    writeWaiting();
                }
            } finally {
                writing.unlock();
            }
        }
        if (mine.failure != null) {
            throw mine.failure;
        }
    }

    /** Entries waiting for a batch (tests). */
    int waiting() {
        return waiting.size();
    }

    private void writeWaiting() {
        List<Pending> batch = new ArrayList<>();
        for (Pending next; batch.size() < MOST && (next = waiting.poll()) != null; ) {
            batch.add(next);
        }
        try {
            writer.write(batch.stream().map(Pending::entry).toList());
            batch.forEach(p -> p.finish(null));
        } catch (RuntimeException failed) {
            if (batch.size() == 1) {
                batch.get(0).finish(failed);
                return;
            }
            // an entry the database refuses fails alone while its neighbours succeed; two failures in a row are the
            // database itself, and the rest of the batch fails at once rather than wait out a timeout each
            RuntimeException previous = null;
            for (Pending p : batch) {
                if (p.done) {
                    continue;
                }
                try {
                    writer.write(List.of(p.entry));
                    p.finish(null);
                    previous = null;
                } catch (RuntimeException alone) {
                    p.finish(alone);
                    if (previous != null) {
                        batch.stream().filter(rest -> !rest.done).forEach(rest -> rest.finish(alone));
                    }
                    previous = alone;
                }
            }
        }
    }

    private static final class Pending {

        private final Supplier<AuditLog> entry;
        private volatile boolean done;
        private volatile RuntimeException failure;

        Pending(Supplier<AuditLog> entry) {
            this.entry = entry;
        }

        Supplier<AuditLog> entry() {
            return entry;
        }

        void finish(RuntimeException failure) {
            this.failure = failure;
            this.done = true;
        }
    }
}
