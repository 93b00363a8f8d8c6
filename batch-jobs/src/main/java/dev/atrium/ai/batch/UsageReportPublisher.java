package dev.atrium.ai.batch;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import dev.atrium.ai.control.UsageReports;
import dev.atrium.platform.objects.ObjectStore;

/** Joins the parts into {@code <date>.csv} and {@code <date>.json}, then removes the parts. */
@Named
@Dependent
public class UsageReportPublisher extends AbstractBatchlet {

    @Inject
    @BatchProperty
    String date;

    @Inject
    ObjectStore objects;

    @Inject
    JobContext job;

    @Inject
    Clock clock;

    @Override
    public String process() {
        LocalDate day = ReportDay.of(date, clock);
        String prefix = ReportDay.partsPrefix(day);
        var csv = new StringBuilder(UsageCsv.header());
        var rows = JSON.createArrayBuilder();
        long requests = 0;
        long tokens = 0;
        BigDecimal cost = BigDecimal.ZERO;
        int count = 0;
        for (String key : objects.list(prefix)) {
            String part = read(key);
            csv.append(part);
            for (var r : UsageCsv.parse(part)) {
                rows.add(JSON.createObjectBuilder().add("user_id", r.userId()).add("model", r.model())
                        .add("requests", r.requests()).add("input_tokens", r.inputTokens())
                        .add("output_tokens", r.outputTokens()).add("tokens", r.tokens()).add("cost", r.cost()));
                requests += r.requests();
                tokens += r.tokens();
                cost = cost.add(r.cost());
                count++;
            }
        }
        var json = JSON.createObjectBuilder().add("date", day.toString())
                .add("generated_at", clock.instant().toString()).add("rows", rows)
                .add("totals", JSON.createObjectBuilder().add("requests", requests).add("tokens", tokens)
                        .add("cost", cost)).build().toString();
        put(UsageReports.PREFIX + day + ".csv", csv.toString(), "text/csv");
        put(UsageReports.PREFIX + day + ".json", json, "application/json");
        objects.list(prefix).forEach(objects::delete);
        job.setExitStatus("ROWS=" + count);
        return "COMPLETED";
    }

    private String read(String key) {
        var stored = objects.get(key).orElseThrow(() -> new IllegalStateException("Missing part " + key));
        try (InputStream in = stored.content()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void put(String key, String content, String type) {
        objects.put(key, new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), type);
    }
}
