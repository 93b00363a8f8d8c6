package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A change this instance never heard of (written straight into the database, as if its message was lost or the
 * instance was down) is set right by the reconciliation: the timer's round, run here by an operator.
 */
@ExtendWith(AtriumServer.class)
class SearchReconcileIT {

    private static void sql(String statement, UUID id) throws Exception {
        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), AtriumServer.Services.postgresUser(),
                "");
             var s = c.prepareStatement(statement)) {
            s.setObject(1, id);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
    }

    private static boolean found(String words, String id) {
        var reply = Api.anonymous().get("/v1/agents/search?limit=50&q=" + words.replace(" ", "+"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return MarketplaceFixtures.ids(reply).contains(id);
    }

    @Test
    void whenAChangeWasMissedThenTheNextReconciliationFindsIt() throws Exception {
        var staff = MarketplaceFixtures.staff();
        String words = "reconcile zebra lighthouse " + UUID.randomUUID().toString().substring(0, 6);
        var card = MarketplaceFixtures.card(MarketplaceFixtures.unique("drifter"), "Drifter " + words,
                "Finds " + words + " for the reconciliation test.", "testing", java.util.List.of("find-zebras"));
        String id = MarketplaceFixtures.listed(staff, card);
        assertThat(found(words, id)).isTrue();
        var admin = staff.api();
        assertThat(admin.post("/v1/admin/search/reconcile").json().get("indexed").asInt()).as("nothing drifted")
                .isZero();

        sql("UPDATE agents SET status = 'SUSPENDED', updated_at = now() WHERE id = ?", UUID.fromString(id));
        var removed = admin.post("/v1/admin/search/reconcile");
        assertThat(removed.status()).as(removed.toString()).isEqualTo(200);
        assertThat(removed.json().get("removed").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(found(words, id)).isFalse();

        sql("UPDATE agents SET status = 'ACTIVE', updated_at = now() WHERE id = ?", UUID.fromString(id));
        assertThat(admin.post("/v1/admin/search/reconcile").json().get("indexed").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(found(words, id)).isTrue();
        assertThat(Accounts.verified("not-staff").api().post("/v1/admin/search/reconcile").status()).isEqualTo(403);
    }
}
