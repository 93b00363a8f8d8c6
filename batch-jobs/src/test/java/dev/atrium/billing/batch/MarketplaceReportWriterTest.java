package dev.atrium.billing.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

import dev.atrium.billing.control.MarketplaceReports;
import dev.atrium.billing.entity.RevenueSplit;

/** The report's CSV reads back field for field, whatever the agents are called, and its totals add up. */
class MarketplaceReportWriterTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);

    @Test
    void whenNamesAreHostileThenTheCsvReadsBackAndTheTotalsAreTheSums() throws Exception {
        var random = new Random(SEED);
        var names = List.of("plain", "comma,name", "quote\"name", "new\nline", "=HYPERLINK(\"x\")", "Zoë 山田", "");
        var lines = new ArrayList<MarketplaceReports.Line>();
        BigDecimal gross = BigDecimal.ZERO;
        for (int i = 0; i < 50; i++) {
            BigDecimal price = BigDecimal.valueOf(random.nextInt(1_000_000_000), 6);
            gross = gross.add(price);
            lines.add(new MarketplaceReports.Line("id-" + i, names.get(i % names.size()), i, i / 2,
                    RevenueSplit.of(price)));
        }

        String csv = MarketplaceReportWriter.csv(lines);

        List<CSVRecord> records = CSVFormat.RFC4180.parse(new StringReader(csv)).getRecords();
        assertThat(records).hasSize(52);
        assertThat(records.get(0).values()).containsExactly(MarketplaceReportWriter.COLUMNS);
        for (int i = 0; i < 50; i++) {
            assertThat(records.get(i + 1).get(1)).isEqualTo(names.get(i % names.size()));
        }
        CSVRecord total = records.get(51);
        assertThat(total.get(0)).isEqualTo("TOTAL");
        assertThat(new BigDecimal(total.get(4))).isEqualByComparingTo(gross);
        assertThat(new BigDecimal(total.get(5)).add(new BigDecimal(total.get(6))).add(new BigDecimal(total.get(7))))
                .isEqualByComparingTo(gross);
    }
}
