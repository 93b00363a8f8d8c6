package dev.atrium.containerit.batch;

import java.io.Serializable;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Reads 1..last; its checkpoint is the last number read, and a restart goes on after it. */
@Named
@Dependent
public class NumberReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String run;

    @Inject
    @BatchProperty
    String last;

    @Inject
    BatchLog log;

    private int next;

    @Override
    public void open(Serializable checkpoint) {
        next = checkpoint == null ? 1 : (Integer) checkpoint + 1;
    }

    @Override
    public Object readItem() {
        if (next > Integer.parseInt(last)) {
            return null;
        }
        log.read(run, next);
        return next++;
    }

    @Override
    public Serializable checkpointInfo() {
        return next - 1;
    }
}
