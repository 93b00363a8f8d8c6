package dev.atrium.ai.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.UsageReports;

class UsageCsvTest {

    private static UsageReports.Row row(String model) {
        return new UsageReports.Row(7, model, 2, 10, 30, new BigDecimal("0.012345"));
    }

    @Test
    void whenWritingThenTheFormatIsTheReportsHeaderAndPlainLines() {
        assertThat(UsageCsv.header()).isEqualTo("user_id,model,requests,input_tokens,output_tokens,tokens,cost\n");
        assertThat(UsageCsv.rows(List.of(row("gpt-4o"), row("a,b")))).isEqualTo(
                "7,gpt-4o,2,10,30,40,0.012345\n7,\"a,b\",2,10,30,40,0.012345\n");
        assertThat(UsageCsv.rows(List.of(row("say \"hi\"")))).isEqualTo("7,\"say \"\"hi\"\"\",2,10,30,40,0.012345\n");
    }

    @Test
    void whenModelNamesAreHostileThenTheyComeBackUnchanged() {
        for (String model : List.of("", "a,b", "\"", "\"\"", "line\nbreak", "cr\rlf\r\n", " lead", "trail ", "#x",
                ",", "\\", "'", "ünïcødé", "a\tb", "=cmd()", "\u0000")) {
            assertThat(UsageCsv.parse(UsageCsv.rows(List.of(row(model), row("after")))))
                    .as(model).containsExactly(row(model), row("after"));
        }
    }

    @Test
    void whenRandomRowsAreWrittenThenTheyAreReadBackExactly() {
        var random = new Random(20261123);
        String alphabet = "ab,\"\n\r #;x\t'\\é";
        for (int round = 0; round < 500; round++) {
            var rows = new ArrayList<UsageReports.Row>();
            for (int i = random.nextInt(5); i >= 0; i--) {
                var model = new StringBuilder();
                for (int c = random.nextInt(12); c > 0; c--) {
                    model.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                rows.add(new UsageReports.Row(random.nextInt(1_000_000), model.toString(), random.nextInt(1000),
                        random.nextInt(100_000), random.nextInt(100_000),
                        BigDecimal.valueOf(random.nextInt(10_000_000), 6)));
            }
            assertThat(UsageCsv.parse(UsageCsv.rows(rows))).as("round %d", round).isEqualTo(rows);
        }
    }

    @Test
    void whenAPartLineIsNotARowThenItIsRefused() {
        assertThatThrownBy(() -> UsageCsv.parse("1,2,3\n")).isInstanceOf(IllegalStateException.class);
    }
}
