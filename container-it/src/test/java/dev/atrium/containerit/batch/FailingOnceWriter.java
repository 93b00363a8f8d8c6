package dev.atrium.containerit.batch;

import java.util.List;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Writes the numbers to the log; the first chunk holding {@code failAt} fails instead, which fails the job. */
@Named
@Dependent
public class FailingOnceWriter extends AbstractItemWriter {

    @Inject
    @BatchProperty
    String run;

    @Inject
    @BatchProperty
    String failAt;

    @Inject
    BatchLog log;

    @Override
    public void writeItems(List<Object> items) {
        var numbers = items.stream().map(Integer.class::cast).toList();
        if (numbers.contains(Integer.parseInt(failAt)) && log.failNow(run)) {
            throw new IllegalStateException("The writer fails once at " + failAt);
        }
        log.written(run, numbers);
    }
}
