package dev.atrium.marketplace.batch;

import java.io.Serializable;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.marketplace.control.submission.RescanService;

/**
 * Re-scans a chunk of listed agents, each in a transaction of its own ({@link RescanService#rescanListed}): an agent
 * that cannot be scanned (its bundle missing from the store) is counted and logged, and the others go on. The counts
 * are kept in the step's persistent data, so a restarted execution reports the whole run, and shown as the exit
 * status: {@code RESCANNED=…,TAKEN_DOWN=…,SKIPPED=…,FAILED=…}.
 */
@Named
@Dependent
public class RescanWriter extends AbstractItemWriter {

    private static final Logger LOG = Logger.getLogger(RescanWriter.class.getName());

    /** What the step did so far. */
    record Counts(long rescanned, long takenDown, long skipped, long failed) implements Serializable {

        Counts plus(RescanService.Scheduled outcome) {
            return switch (outcome) {
                case CLEAN -> new Counts(rescanned + 1, takenDown, skipped, failed);
                case TAKEN_DOWN -> new Counts(rescanned + 1, takenDown + 1, skipped, failed);
                case SKIPPED -> new Counts(rescanned, takenDown, skipped + 1, failed);
            };
        }

        Counts failedOne() {
            return new Counts(rescanned, takenDown, skipped, failed + 1);
        }

        String exitStatus() {
            return "RESCANNED=" + rescanned + ",TAKEN_DOWN=" + takenDown + ",SKIPPED=" + skipped + ",FAILED=" + failed;
        }
    }

    @EJB
    RescanService rescans;

    @Inject
    StepContext step;

    @Inject
    JobContext job;

    @Override
    public void writeItems(List<Object> items) {
        Counts counts = step.getPersistentUserData() instanceof Counts c ? c : new Counts(0, 0, 0, 0);
        for (Object item : items) {
            UUID agent = (UUID) item;
            try {
                counts = counts.plus(rescans.rescanListed(agent));
            } catch (RuntimeException e) {
                LOG.warning(() -> "The scheduled re-scan of agent " + agent + " failed: " + e);
                counts = counts.failedOne();
            }
        }
        step.setPersistentUserData(counts);
        job.setExitStatus(counts.exitStatus());
    }
}
