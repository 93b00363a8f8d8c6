package dev.atrium.billing.batch;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import dev.atrium.billing.control.MarketplaceReports;
import dev.atrium.billing.entity.Money;

/**
 * Writes the day's marketplace report (job parameter {@code date}, YYYY-MM-DD; default yesterday, UTC) as CSV through
 * commons-csv: one line per agent called that day, then a {@code TOTAL} line. One aggregate query over the day, so
 * one step; a rerun rewrites the same report.
 */
@Named
@Dependent
public class MarketplaceReportWriter extends AbstractBatchlet {

    static final String[] COLUMNS = {"agent_id", "agent_name", "calls", "succeeded", "gross", "developer_share",
        "platform_share", "model_cost"};
    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator("\n").get();

    @EJB
    MarketplaceReports reports;

    @Inject
    @BatchProperty
    String date;

    @Inject
    JobContext job;

    @Override
    public String process() {
        LocalDate day = date == null || date.isBlank() ? reports.yesterday() : LocalDate.parse(date);
        var lines = reports.lines(day);
        reports.write(day, csv(lines), lines.size());
        job.setExitStatus("DATE=" + day + ",AGENTS=" + lines.size());
        return "COMPLETED";
    }

    static String csv(List<MarketplaceReports.Line> lines) {
        var out = new StringWriter();
        try (var printer = new CSVPrinter(out, FORMAT)) {
            printer.printRecord((Object[]) COLUMNS);
            long calls = 0;
            long succeeded = 0;
            BigDecimal gross = Money.ZERO;
            BigDecimal developer = Money.ZERO;
            BigDecimal platform = Money.ZERO;
            BigDecimal model = Money.ZERO;
            for (var l : lines) {
                printer.printRecord(l.agentId(), l.agentName(), l.calls(), l.succeeded(),
                        l.split().total().toPlainString(), l.split().developer().toPlainString(),
                        l.split().platform().toPlainString(), l.split().model().toPlainString());
                calls += l.calls();
                succeeded += l.succeeded();
                gross = gross.add(l.split().total());
                developer = developer.add(l.split().developer());
                platform = platform.add(l.split().platform());
                model = model.add(l.split().model());
            }
            printer.printRecord("TOTAL", "", calls, succeeded, gross.toPlainString(), developer.toPlainString(),
                    platform.toPlainString(), model.toPlainString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
