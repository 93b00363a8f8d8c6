package dev.atrium.billing.batch;

import java.util.List;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.StepContext;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.billing.control.Payouts;
import dev.atrium.platform.CrashPoints;

/**
 * Settles a chunk of developers for the month in the chunk's transaction; counts the paid in the step's data. The
 * job parameters {@code crash_after_chunks} and {@code restart_of} go to the crash points, where a test deployment
 * halts the JVM inside a chunk; the product ignores them.
 */
@Named
@Dependent
public class PayoutWriter extends AbstractItemWriter {

    @EJB
    Payouts payouts;

    @Inject
    @BatchProperty
    String month;

    @Inject
    @BatchProperty
    String crashAfterChunks;

    @Inject
    @BatchProperty
    String restartOf;

    @Inject
    CrashPoints crash;

    @Inject
    StepContext step;

    private int chunks;

    @Override
    public void writeItems(List<Object> items) {
        chunks++;
        crash.payoutChunk(chunks, crashAfterChunks, restartOf);
        int paid = payouts.settle(items.stream().map(Long.class::cast).toList(), PayoutMonth.of(month, payouts));
        long before = step.getPersistentUserData() instanceof Long n ? n : 0;
        step.setPersistentUserData(before + paid);
    }
}
