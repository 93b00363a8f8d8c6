package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;

/**
 * A payout run whose server dies in the middle pays every developer exactly once: the run is killed inside a chunk
 * about halfway through these developers (the chunks before it committed), the server comes back, the month is run again, and each developer has one payout,
 * one entry and the right amount, and the ledger still agrees with itself.
 */
@ExtendWith(AtriumServer.class)
class PayoutCrashIT {

    private static final String MONTH = "2025-01";
    private static final int DEVELOPERS = 12;

    @BeforeEach
    void resilienceOnly() {
        assumeTrue(AtriumServer.get().resilience(), "needs the resilience server that may be killed and restarted");
    }

    private static List<Map<String, Object>> sql(String statement, Object... parameters) throws Exception {
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(),
                AtriumServer.Services.postgresUser(), "");
             var s = c.prepareStatement(statement)) {
            for (int i = 0; i < parameters.length; i++) {
                s.setObject(i + 1, parameters[i]);
            }
            if (!s.execute()) {
                return List.of();
            }
            var rows = new ArrayList<Map<String, Object>>();
            try (var r = s.getResultSet()) {
                while (r.next()) {
                    var row = new java.util.LinkedHashMap<String, Object>();
                    for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                        row.put(r.getMetaData().getColumnLabel(i), r.getObject(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    /** Earnings of 60.00 in January 2025 for each developer, from promotions, and a bank payout account. */
    private static List<Long> seed() throws Exception {
        long base = 900_000 + (System.nanoTime() % 50_000) * 10;
        sql("INSERT INTO billing_accounts (id, kind, owner_id, balance, held, created_at) VALUES (?, 'PROMOTIONS', 0, "
                + "0, 0, now()) ON CONFLICT (kind, owner_id) DO NOTHING", UUID.randomUUID());
        UUID promotions = (UUID) sql("SELECT id FROM billing_accounts WHERE kind = 'PROMOTIONS'").get(0).get("id");
        var developers = new ArrayList<Long>();
        for (int i = 0; i < DEVELOPERS; i++) {
            long developer = base + i;
            UUID account = UUID.randomUUID();
            UUID entry = UUID.randomUUID();
            sql("INSERT INTO billing_accounts (id, kind, owner_id, balance, held, created_at) VALUES (?, "
                    + "'DEVELOPER_EARNINGS', ?, 60, 0, now())", account, developer);
            sql("INSERT INTO journal_entries (id, kind, reference, memo, occurred_at, posted_at) VALUES (?, 'USAGE', ?, "
                    + "'seeded', TIMESTAMP WITH TIME ZONE '2025-01-15 12:00:00+00', now())", entry, "seed:" + entry);
            sql("INSERT INTO journal_lines (id, entry_id, line_no, account_id, amount, posted_at) VALUES (?, ?, 1, ?, "
                    + "-60, now()), (?, ?, 2, ?, 60, now())", UUID.randomUUID(), entry, promotions, UUID.randomUUID(),
                    entry, account);
            sql("UPDATE billing_accounts SET balance = balance - 60 WHERE id = ?", promotions);
            sql("INSERT INTO billing_payout_accounts (user_id, method, holder_name, iban, bic, updated_at) VALUES "
                    + "(?, 'BANK_TRANSFER', ?, 'GB82WEST12345698765432', 'NWBKGB2L', now())", developer,
                    "Developer " + i);
            developers.add(developer);
        }
        return developers;
    }

    private static String start(Api admin, String query) {
        var started = admin.post("/admin/batch-jobs/monthly-payout/executions?month=" + MONTH + query);
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        return started.json().get("href").asText();
    }

    @Test
    void whenThePayoutRunIsKilledMidwayThenItIsRestartedFromItsCheckpointAndPaysEachDeveloperExactlyOnce()
            throws Exception {
        var server = AtriumServer.get();
        var developers = seed();
        var admin = Accounts.admin().api();

        // developers of other tests come first (smaller ids): the crash falls after about half of ours
        long others = (Long) sql("SELECT COUNT(*) AS n FROM billing_accounts WHERE kind = 'DEVELOPER_EARNINGS' AND "
                + "owner_id < ?", developers.get(0)).get(0).get("n");
        long all = (Long) sql("SELECT COUNT(*) AS n FROM billing_accounts WHERE kind = 'DEVELOPER_EARNINGS'")
                .get(0).get("n");
        long crashAfter = (others + DEVELOPERS / 2) / 4;
        String killed = start(admin, "&chunk=4&crash_after_chunks=" + crashAfter);
        long killedId = Long.parseLong(killed.substring(killed.lastIndexOf('/') + 1));
        assertThat(server.awaitExit(Duration.ofSeconds(120))).as("the server halted inside the chunk").isTrue();
        long paidBeforeCrash = (Long) sql("SELECT COUNT(*) AS n FROM billing_payouts WHERE pay_month = ? AND "
                + "status = 'PENDING_FILE' AND developer_id >= ?", MONTH, developers.get(0)).get(0).get("n");
        assertThat(paidBeforeCrash).as("some, not all, were paid before the crash").isBetween(1L,
                (long) DEVELOPERS - 1);

        // nobody starts anything: the restarted server finds the execution its predecessor left and restarts it
        server.restart();
        var again = Accounts.admin().api();
        JsonNode restart = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < deadline) {
            var executions = again.get("/admin/batch-jobs/monthly-payout/executions");
            assertThat(executions.status()).as(executions.toString()).isEqualTo(200);
            restart = null;
            for (JsonNode e : executions.json().get("data")) {
                if (e.path("restart_of").asLong() == killedId) {
                    restart = e;
                }
            }
            if (restart != null && !List.of("STARTING", "STARTED").contains(restart.get("status").asText())) {
                break;
            }
            Thread.sleep(500);
        }
        assertThat(restart).as("a restart of execution " + killedId).isNotNull();
        assertThat(restart.get("status").asText()).as(restart.toString()).isEqualTo("COMPLETED");
        var killedView = again.get("/admin/batch-executions/" + killedId).json();
        assertThat(restart.get("instance_id").asLong()).as("the same job instance")
                .isEqualTo(killedView.get("instance_id").asLong());
        JsonNode settle = null;
        for (JsonNode step : again.get("/admin/batch-executions/" + restart.get("id").asLong()).json().get("steps")) {
            if (step.get("name").asText().equals("settle")) {
                settle = step;
            }
        }
        assertThat(settle).as(restart.toString()).isNotNull();
        assertThat(settle.get("read_count").asLong()).as("the restart read only what followed the checkpoint: "
                + settle).isEqualTo(all - crashAfter * 4);

        // a second run for the month pays nothing again
        String href = start(again, "");
        JsonNode end = null;
        deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            end = again.get(href).json();
            if (!List.of("STARTING", "STARTED").contains(end.get("status").asText())) {
                break;
            }
            Thread.sleep(300);
        }
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");

        for (long developer : developers) {
            // in any month: a restart that lost its month parameter would have paid them for another one
            var payouts = sql("SELECT amount, status, pay_month FROM billing_payouts WHERE developer_id = ?",
                    developer);
            assertThat(payouts).as("developer " + developer).hasSize(1);
            assertThat(payouts.get(0).get("pay_month")).isEqualTo(MONTH);
            assertThat((BigDecimal) payouts.get(0).get("amount")).isEqualByComparingTo("60.00");
            assertThat(payouts.get(0).get("status")).isEqualTo("FILED");
            assertThat(sql("SELECT id FROM journal_entries WHERE reference = ?", "payout:" + developer + ":" + MONTH))
                    .hasSize(1);
            assertThat((BigDecimal) sql("SELECT balance FROM billing_accounts WHERE kind = 'DEVELOPER_EARNINGS' AND "
                    + "owner_id = ?", developer).get(0).get("balance")).isEqualByComparingTo("0");
        }
        var file = again.get("/v1/admin/billing/payout-runs/" + MONTH + "/file");
        assertThat(file.status()).isEqualTo(200);
        assertThat(file.body().split("<CdtTrfTxInf>", -1).length - 1).isGreaterThanOrEqualTo(DEVELOPERS);
        var report = again.get("/v1/admin/billing/reconciliation?date=2025-01-15").json();
        assertThat(report.get("unbalanced_entries").asLong()).as(report.toString()).isZero();
        assertThat(report.get("accounts_off_balance")).as(report.toString()).isEmpty();
    }
}
