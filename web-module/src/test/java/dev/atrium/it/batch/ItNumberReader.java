package dev.atrium.it.batch;

import java.io.Serializable;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Reads 1..count, restarting after the last checkpoint. */
@Named
@Dependent
public class ItNumberReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String count;

    private int next;

    @Override
    public void open(Serializable checkpoint) {
        next = checkpoint == null ? 1 : (Integer) checkpoint;
    }

    @Override
    public Object readItem() {
        return next <= Integer.parseInt(count) ? next++ : null;
    }

    @Override
    public Serializable checkpointInfo() {
        return next;
    }
}
