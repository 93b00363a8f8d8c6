package dev.atrium.platform.jobs;

import jakarta.batch.api.listener.JobListener;
import jakarta.batch.runtime.context.JobContext;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.platform.batch.ExecutionLeases;

/** Holds the execution's lease while it runs here, so recovery leaves it alone (see ExecutionLeases). */
@Named("executionLease")
@Dependent
public class ExecutionLeaseListener implements JobListener {

    @EJB
    ExecutionLeases leases;

    @Inject
    JobContext job;

    @Override
    public void beforeJob() {
        leases.hold(job.getExecutionId());
    }

    @Override
    public void afterJob() {
        leases.release(job.getExecutionId());
    }
}
