package dev.atrium.it.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.atrium.it.Accounts;
import dev.atrium.it.Api;
import dev.atrium.it.AtriumServer;
import dev.atrium.it.Reply;
import dev.atrium.it.StripeStub;
import dev.atrium.platform.webhook.WebhookSignature;

/**
 * Processor payouts through Stripe Connect (the resilience server is configured with Stripe, its API played by
 * {@link StripeStub}): the month's run sends a transfer per payout keyed by the payout id, and the payout stays
 * pending until Stripe's signed event: {@code transfer.created} pays it, {@code transfer.reversed} fails it and posts
 * the money back to the earnings, once. Stripe down at the run leaves the payouts pending, sent by the next run.
 */
@ExtendWith(AtriumServer.class)
class StripePayoutIT {

    private static final String MONTH = "2025-03";

    @BeforeEach
    void resilienceOnly() {
        assumeTrue(AtriumServer.get().resilience(), "the resilience server is the one configured with Stripe");
    }

    @AfterEach
    void stripeAnswersAgain() {
        if (AtriumServer.get().stripe() != null) {
            AtriumServer.get().stripe().failWith(0);
        }
    }

    private static List<Map<String, Object>> sql(String statement, Object... parameters) throws Exception {
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), AtriumServer.Services.postgresUser(),
                "");
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

    /** Earnings of 80.00 in March 2025, from promotions, and a processor payout account with a connected account. */
    private static long seedDeveloper(String connectedAccount) throws Exception {
        long developer = 700_000 + (System.nanoTime() % 90_000) * 10;
        sql("INSERT INTO billing_accounts (id, kind, owner_id, balance, held, created_at) VALUES (?, 'PROMOTIONS', 0, "
                + "0, 0, now()) ON CONFLICT (kind, owner_id) DO NOTHING", UUID.randomUUID());
        UUID promotions = (UUID) sql("SELECT id FROM billing_accounts WHERE kind = 'PROMOTIONS'").get(0).get("id");
        UUID account = UUID.randomUUID();
        UUID entry = UUID.randomUUID();
        sql("INSERT INTO billing_accounts (id, kind, owner_id, balance, held, created_at) VALUES (?, "
                + "'DEVELOPER_EARNINGS', ?, 80, 0, now())", account, developer);
        sql("INSERT INTO journal_entries (id, kind, reference, memo, occurred_at, posted_at) VALUES (?, 'USAGE', ?, "
                + "'seeded', TIMESTAMP WITH TIME ZONE '2025-03-15 12:00:00+00', now())", entry, "seed:" + entry);
        sql("INSERT INTO journal_lines (id, entry_id, line_no, account_id, amount, posted_at) VALUES (?, ?, 1, ?, "
                + "-80, now()), (?, ?, 2, ?, 80, now())", UUID.randomUUID(), entry, promotions, UUID.randomUUID(),
                entry, account);
        sql("UPDATE billing_accounts SET balance = balance - 80 WHERE id = ?", promotions);
        sql("INSERT INTO billing_payout_accounts (user_id, method, holder_name, connected_account, updated_at) VALUES "
                + "(?, 'PROCESSOR', 'Connected Developer', ?, now())", developer, connectedAccount);
        return developer;
    }

    private static void runMonth(Api admin) throws Exception {
        var started = admin.post("/v1/admin/billing/payout-runs", Map.of("month", MONTH));
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        String href = started.json().get("href").asText();
        JsonNode end = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            end = admin.get(href).json();
            if (!List.of("STARTING", "STARTED").contains(end.get("status").asText())) {
                break;
            }
            Thread.sleep(300);
        }
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("COMPLETED");
    }

    private static JsonNode payout(Api admin, long developer) {
        for (JsonNode p : admin.get("/v1/admin/billing/payout-runs/" + MONTH).json().get("payouts")) {
            if (p.get("developer_id").asLong() == developer) {
                return p;
            }
        }
        throw new AssertionError("no payout of developer " + developer);
    }

    private static BigDecimal earnings(long developer) throws Exception {
        return (BigDecimal) sql("SELECT balance FROM billing_accounts WHERE kind = 'DEVELOPER_EARNINGS' AND "
                + "owner_id = ?", developer).get(0).get("balance");
    }

    private static Reply event(String file, String transfer, String cents, String destination, String payoutId,
                               Instant signedAt, String secret) {
        String body = StripeStub.payload(file, Map.of("transfer", transfer, "amount", cents, "destination",
                destination, "payout_id", payoutId, "transfer_group", MONTH));
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        return Api.anonymous().header("Stripe-Signature", WebhookSignature.sign(
                        secret.getBytes(StandardCharsets.UTF_8), signedAt.getEpochSecond(), raw))
                .send("POST", "/v1/billing/webhooks/stripe", raw, "application/json");
    }

    private static Reply event(String file, JsonNode payout) {
        return event(file, payout.get("transfer_id").asText(), "8000", payout.get("connected_account").asText(),
                payout.get("id").asText(), Instant.now(), StripeStub.WEBHOOK_SECRET);
    }

    @Test
    void whenAMonthPaysThroughStripeThenPayoutsStayPendingUntilConfirmedAndAReversalReturnsTheMoneyOnce()
            throws Exception {
        var stripe = AtriumServer.get().stripe();
        var admin = Accounts.admin().api();
        long paid = seedDeveloper("acct_1AtriumItPaid0001");
        long reversed = seedDeveloper("acct_1AtriumItReversed01");

        // Stripe is down at the run: nothing moves, the payouts wait and say why
        stripe.failWith(503);
        runMonth(admin);
        for (long developer : List.of(paid, reversed)) {
            var p = payout(admin, developer);
            assertThat(p.get("status").asText()).as(p.toString()).isEqualTo("pending");
            assertThat(p.path("transfer_id").isMissingNode() || p.get("transfer_id").isNull()).isTrue();
            assertThat(p.get("reason").asText()).contains("transfer not sent");
            assertThat(earnings(developer)).isEqualByComparingTo("0");
        }

        // the month's next run sends them, one transfer each, keyed by the payout
        stripe.failWith(0);
        int before = stripe.requests().size();
        runMonth(admin);
        var transfers = stripe.requests().subList(before, stripe.requests().size()).stream()
                .filter(r -> r.form().containsKey("destination")).toList();
        var toPaid = payout(admin, paid);
        var toReversed = payout(admin, reversed);
        for (var p : List.of(toPaid, toReversed)) {
            assertThat(p.get("status").asText()).as(p.toString()).isEqualTo("pending");
            assertThat(p.get("transfer_id").asText()).startsWith("tr_1AtriumIt");
            var sent = transfers.stream().filter(r -> p.get("id").asText().equals(r.form().get("metadata[payout_id]")))
                    .toList();
            assertThat(sent).as("one transfer for " + p).hasSize(1);
            assertThat(sent.get(0).form()).containsEntry("amount", "8000").containsEntry("currency", "usd")
                    .containsEntry("destination", p.get("connected_account").asText());
            assertThat(sent.get(0).headers().get("Idempotency-key")).containsExactly("atrium-payout-"
                    + p.get("id").asText());
        }

        // hostile events change nothing
        String transfer = toPaid.get("transfer_id").asText();
        String destination = toPaid.get("connected_account").asText();
        String id = toPaid.get("id").asText();
        Instant now = Instant.now();
        String created = "event.transfer.created.json";
        String secret = StripeStub.WEBHOOK_SECRET;
        assertThat(event(created, transfer, "8000", destination, id, now, "whsec_wrong").status()).isEqualTo(401);
        assertThat(event(created, transfer, "8000", destination, id, now.minusSeconds(301), secret).status())
                .as("replayed after the window").isEqualTo(400);
        assertThat(event(created, transfer, "800000", destination, id, now, secret).status()).as("another amount")
                .isEqualTo(422);
        assertThat(event(created, "tr_1AtriumItSomeOther", "8000", destination, id, now, secret).status())
                .as("another transfer").isEqualTo(422);
        assertThat(event(created, transfer, "8000", "acct_1AtriumItThief0001", id, now, secret).status())
                .as("another destination").isEqualTo(422);
        assertThat(event(created, transfer, "8000", destination, UUID.randomUUID().toString(), now, secret).status())
                .as("an unknown payout").isEqualTo(404);
        assertThat(payout(admin, paid).get("status").asText()).isEqualTo("pending");

        // confirmed: paid; Stripe delivers at least once, and the duplicate changes nothing
        var confirmed = event(created, toPaid);
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        assertThat(confirmed.json().get("payout").asText()).isEqualTo("paid");
        assertThat(event(created, toPaid).json().get("payout").asText()).isEqualTo("paid");
        assertThat(payout(admin, paid).get("status").asText()).isEqualTo("paid");
        assertThat(earnings(paid)).isEqualByComparingTo("0");

        // reversed: failed, and the money is back in the earnings once, however often the event comes
        var back = event("event.transfer.reversed.json", toReversed);
        assertThat(back.status()).as(back.toString()).isEqualTo(200);
        assertThat(back.json().get("payout").asText()).isEqualTo("failed");
        assertThat(event("event.transfer.reversed.json", toReversed).json().get("payout").asText())
                .isEqualTo("failed");
        assertThat(event(created, toReversed).status()).as("no success after the money went back").isEqualTo(409);
        assertThat(payout(admin, reversed).get("status").asText()).isEqualTo("failed");
        assertThat(earnings(reversed)).isEqualByComparingTo("80.00");
        assertThat(sql("SELECT id FROM journal_entries WHERE reference = ?", "payout-returned:"
                + toReversed.get("id").asText())).hasSize(1);

        // the month's next run sends nothing again
        int sentBefore = stripe.requests().size();
        runMonth(admin);
        assertThat(stripe.requests()).hasSize(sentBefore);
        var report = admin.get("/v1/admin/billing/reconciliation?date=2025-03-15").json();
        assertThat(report.get("unbalanced_entries").asLong()).as(report.toString()).isZero();
        assertThat(report.get("accounts_off_balance")).as(report.toString()).isEmpty();
    }
}
