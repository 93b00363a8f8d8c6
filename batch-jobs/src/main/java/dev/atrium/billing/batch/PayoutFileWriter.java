package dev.atrium.billing.batch;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.billing.control.Payouts;

/** Writes the month's pain.001 file of bank transfers; the job's exit status names the month and the count. */
@Named
@Dependent
public class PayoutFileWriter extends AbstractBatchlet {

    @EJB
    Payouts payouts;

    @Inject
    @BatchProperty
    String month;

    @Inject
    JobContext job;

    @Override
    public String process() {
        var which = PayoutMonth.of(month, payouts);
        int transfers = payouts.file(which);
        job.setExitStatus("MONTH=" + which + ",TRANSFERS=" + transfers);
        return "COMPLETED";
    }
}
