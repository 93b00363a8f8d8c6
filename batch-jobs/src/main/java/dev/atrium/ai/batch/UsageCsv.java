package dev.atrium.ai.batch;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

import dev.atrium.ai.control.UsageReports;

/**
 * The usage report's CSV through commons-csv: RFC 4180 (fields quoted only when they need it), lines ending in
 * {@code \n}, one header line in the joined report and none in the parts.
 */
final class UsageCsv {

    static final String[] COLUMNS = {"user_id", "model", "requests", "input_tokens", "output_tokens", "tokens",
        "cost"};
    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator("\n").get();

    private UsageCsv() {
    }

    /** The header line. */
    static String header() {
        return print(List.of(), true);
    }

    /** The rows, without a header. */
    static String rows(List<UsageReports.Row> rows) {
        return print(rows, false);
    }

    /** Reads rows written by {@link #rows}; a line that is not a row of seven fields is an error. */
    static List<UsageReports.Row> parse(String csv) {
        var rows = new ArrayList<UsageReports.Row>();
        try (var parser = FORMAT.parse(new StringReader(csv))) {
            for (CSVRecord r : parser) {
                if (r.size() != COLUMNS.length) {
                    throw new IllegalStateException("Usage part line " + r.getRecordNumber() + " has " + r.size()
                            + " fields");
                }
                rows.add(new UsageReports.Row(Long.parseLong(r.get(0)), r.get(1), Long.parseLong(r.get(2)),
                        Long.parseLong(r.get(3)), Long.parseLong(r.get(4)), new BigDecimal(r.get(6))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    private static String print(List<UsageReports.Row> rows, boolean header) {
        var out = new StringBuilder();
        try (var printer = new CSVPrinter(out, FORMAT)) {
            if (header) {
                printer.printRecord((Object[]) COLUMNS);
            }
            for (var row : rows) {
                printer.printRecord(row.userId(), row.model() == null ? "" : row.model(), row.requests(),
                        row.inputTokens(), row.outputTokens(), row.tokens(), row.cost().toPlainString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
