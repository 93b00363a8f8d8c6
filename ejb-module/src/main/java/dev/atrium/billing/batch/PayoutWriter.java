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

/**
 * Settles a chunk of developers for the month in the chunk's transaction; counts the paid in the step's data. With
 * the test hook {@code atrium.test.crash-after-commit} (never in production), the job parameter
 * {@code crash_after_chunks} halts the JVM inside the chunk after that many; a restarted execution never does.
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
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "atrium.test.crash-after-commit",
            defaultValue = "false")
    boolean crashHook;

    @Inject
    StepContext step;

    private int chunks;

    @Override
    public void writeItems(List<Object> items) {
        chunks++;
        if (crashHook && crashAfterChunks != null && !crashAfterChunks.isBlank()
                && (restartOf == null || restartOf.isBlank())
                && chunks > Integer.parseInt(crashAfterChunks)) {
            // a test proving exactly-once: the JVM dies inside this chunk's transaction, the earlier ones committed
            java.util.logging.Logger.getLogger(PayoutWriter.class.getName()).severe("atrium.test.crash-after-commit: "
                    + "halting inside payout chunk " + chunks);
            Runtime.getRuntime().halt(137);
        }
        int paid = payouts.settle(items.stream().map(Long.class::cast).toList(), PayoutMonth.of(month, payouts));
        long before = step.getPersistentUserData() instanceof Long n ? n : 0;
        step.setPersistentUserData(before + paid);
    }
}
