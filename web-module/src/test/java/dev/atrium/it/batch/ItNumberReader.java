package dev.atrium.it.batch;

import java.io.Serializable;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Reads 1..count, restarting after the last checkpoint. With {@code failAt} above 0 a first execution fails as it
 * reaches that number (its chunk rolled back); a restart, which begins at a checkpoint, reads on past it.
 */
@Named
@Dependent
public class ItNumberReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String count;

    @Inject
    @BatchProperty
    String failAt;

    private int next;

    private boolean restarted;

    @Override
    public void open(Serializable checkpoint) {
        restarted = checkpoint != null;
        next = restarted ? (Integer) checkpoint : 1;
    }

    @Override
    public Object readItem() {
        if (!restarted && next == Integer.parseInt(failAt)) {
            throw new IllegalStateException("fail_at " + failAt + " reached");
        }
        return next <= Integer.parseInt(count) ? next++ : null;
    }

    @Override
    public Serializable checkpointInfo() {
        return next;
    }
}
