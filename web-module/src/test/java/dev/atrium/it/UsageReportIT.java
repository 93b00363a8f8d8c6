package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The daily usage report batch job: per user and model, requests, tokens and cost, as CSV and JSON. */
@ExtendWith(AtriumServer.class)
class UsageReportIT {

    @Test
    void whenTheReportRunsThenItHasTheDaysRequestsTokensAndCostPerUserAndModel() {
        assumeFalse(AtriumServer.get().embedded());
        var user = Accounts.verified("reported");
        for (int i = 0; i < 3; i++) {
            assertThat(user.api().post("/api/chat/completions", Map.of("message", "count me " + i)).status())
                    .isEqualTo(200);
        }
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        var admin = Accounts.admin();
        var started = admin.api().post("/api/admin/reports", Map.of("date", today));
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var execution = BatchIT.awaitEnd(admin.api(), started.json().get("href").asText(), Duration.ofSeconds(60));
        assertThat(execution.get("status").asText()).isEqualTo("COMPLETED");

        var list = admin.api().get("/api/admin/reports").json();
        assertThat(list.get("items")).extracting(i -> i.get("name").asText())
                .contains(today + ".csv", today + ".json");
        var csv = admin.api().get("/api/admin/reports/" + today + ".csv");
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.header("Content-Type")).startsWith("text/csv");
        assertThat(csv.body()).startsWith("user_id,model,requests,input_tokens,output_tokens,tokens,cost\n");
        assertThat(csv.body()).contains("\n" + user.id() + ",echo,3,");

        var json = admin.api().get("/api/admin/reports/" + today + ".json").json();
        assertThat(json.get("date").asText()).isEqualTo(today);
        var mine = json.get("rows").findParents("user_id").stream()
                .filter(r -> r.get("user_id").asLong() == user.id()).findFirst().orElseThrow();
        assertThat(mine.get("requests").asLong()).isEqualTo(3);
        assertThat(mine.get("tokens").asLong()).isEqualTo(mine.get("input_tokens").asLong()
                + mine.get("output_tokens").asLong());
        assertThat(json.at("/totals/requests").asLong()).isGreaterThanOrEqualTo(3);

        assertThat(user.api().get("/api/admin/reports").status()).isEqualTo(403);
        assertThat(admin.api().get("/api/admin/reports/../../etc.csv").status()).isEqualTo(404);
        assertThat(admin.api().post("/api/admin/reports", Map.of("date", "yesterday")).status()).isEqualTo(422);
    }
}
