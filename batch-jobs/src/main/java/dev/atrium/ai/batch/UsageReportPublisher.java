package dev.atrium.ai.batch;

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
import jakarta.json.Json;

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
        var csv = new StringBuilder(UsageCsv.HEADER);
        var rows = Json.createArrayBuilder();
        long requests = 0;
        long tokens = 0;
        BigDecimal cost = BigDecimal.ZERO;
        int count = 0;
        for (String key : objects.list(prefix)) {
            String part = read(key);
            csv.append(part);
            for (String line : part.split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = parse(line);
                var row = Json.createObjectBuilder().add("user_id", Long.parseLong(f[0])).add("model", f[1])
                        .add("requests", Long.parseLong(f[2])).add("input_tokens", Long.parseLong(f[3]))
                        .add("output_tokens", Long.parseLong(f[4])).add("tokens", Long.parseLong(f[5]))
                        .add("cost", new BigDecimal(f[6]));
                rows.add(row);
                requests += Long.parseLong(f[2]);
                tokens += Long.parseLong(f[5]);
                cost = cost.add(new BigDecimal(f[6]));
                count++;
            }
        }
        var json = Json.createObjectBuilder().add("date", day.toString())
                .add("generated_at", clock.instant().toString()).add("rows", rows)
                .add("totals", Json.createObjectBuilder().add("requests", requests).add("tokens", tokens)
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

    /** Splits a line written by {@link UsagePartWriter}; only the model may be quoted. */
    static String[] parse(String line) {
        int first = line.indexOf(',');
        String rest = line.substring(first + 1);
        String model;
        String tail;
        if (rest.startsWith("\"")) {
            int end = 1;
            var value = new StringBuilder();
            while (end < rest.length()) {
                char c = rest.charAt(end);
                if (c == '"' && end + 1 < rest.length() && rest.charAt(end + 1) == '"') {
                    value.append('"');
                    end += 2;
                } else if (c == '"') {
                    break;
                } else {
                    value.append(c);
                    end++;
                }
            }
            model = value.toString();
            tail = rest.substring(end + 2);
        } else {
            int comma = rest.indexOf(',');
            model = rest.substring(0, comma);
            tail = rest.substring(comma + 1);
        }
        String[] numbers = tail.split(",");
        return new String[] {line.substring(0, first), model, numbers[0], numbers[1], numbers[2], numbers[3],
                numbers[4]};
    }
}
