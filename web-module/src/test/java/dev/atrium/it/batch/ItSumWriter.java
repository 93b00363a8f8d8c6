package dev.atrium.it.batch;

import java.util.List;

import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Adds each chunk to a sum kept in the step's persistent data and reports it as the job's exit status. */
@Named
@Dependent
public class ItSumWriter extends AbstractItemWriter {

    @Inject
    StepContext step;

    @Inject
    JobContext job;

    @Override
    public void writeItems(List<Object> items) {
        long sum = step.getPersistentUserData() == null ? 0 : (Long) step.getPersistentUserData();
        for (Object item : items) {
            sum += (Long) item;
        }
        step.setPersistentUserData(sum);
        job.setExitStatus("SUM=" + sum);
    }
}
