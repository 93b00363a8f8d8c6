package dev.atrium.billing.batch;

import java.util.List;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.billing.control.Payouts;

/** Settles a chunk of developers for the month in the chunk's transaction; counts the paid in the step's data. */
@Named
@Dependent
public class PayoutWriter extends AbstractItemWriter {

    @Inject
    Payouts payouts;

    @Inject
    @BatchProperty
    String month;

    @Inject
    StepContext step;

    @Override
    public void writeItems(List<Object> items) {
        int paid = payouts.settle(items.stream().map(Long.class::cast).toList(), PayoutMonth.of(month, payouts));
        long before = step.getPersistentUserData() instanceof Long n ? n : 0;
        step.setPersistentUserData(before + paid);
    }
}
