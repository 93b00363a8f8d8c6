package dev.atrium.ai.batch;

import java.io.Serializable;
import java.time.Clock;
import java.util.List;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.ai.control.UsageReports;

/** Reads the day's report rows; the checkpoint is the index of the next row. */
@Named
@Dependent
public class UsageRowReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String date;

    @EJB
    UsageReports reports;

    @Inject
    Clock clock;

    private List<UsageReports.Row> rows;
    private int next;

    @Override
    public void open(Serializable checkpoint) {
        rows = reports.rows(ReportDay.of(date, clock));
        next = checkpoint == null ? 0 : (Integer) checkpoint;
    }

    @Override
    public Object readItem() {
        return next < rows.size() ? rows.get(next++) : null;
    }

    @Override
    public Serializable checkpointInfo() {
        return next;
    }
}
