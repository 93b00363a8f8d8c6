package dev.atrium.ai.batch;

import java.io.ByteArrayInputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.ai.control.UsageReports;
import dev.atrium.platform.objects.ObjectStore;

/** Writes each chunk of rows as one numbered CSV part; the checkpoint is the next part's number. */
@Named
@Dependent
public class UsagePartWriter extends AbstractItemWriter {

    @Inject
    @BatchProperty
    String date;

    @Inject
    ObjectStore objects;

    @Inject
    Clock clock;

    private int part;

    @Override
    public void open(Serializable checkpoint) {
        part = checkpoint == null ? 0 : (Integer) checkpoint;
    }

    @Override
    public void writeItems(List<Object> items) {
        String csv = UsageCsv.rows(items.stream().map(UsageReports.Row.class::cast).toList());
        objects.put(ReportDay.partsPrefix(ReportDay.of(date, clock)) + String.format("part-%06d.csv", part++),
                new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), "text/csv");
    }

    @Override
    public Serializable checkpointInfo() {
        return part;
    }
}
