package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.sql.DriverManager;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Deleting a user ({@code DELETE /admin/users/{id}}) takes their conversations, messages, tasks and API key with
 * them, and suspends their marketplace agents with reason {@code author_deleted}.
 */
@ExtendWith(AtriumServer.class)
class DeletedUserIT {

    @Test
    void whenAUserIsDeletedThenTheirAiDataGoesAndTheirAgentsAreSuspended() throws Exception {
        assumeFalse(AtriumServer.get().embedded());
        var staff = MarketplaceFixtures.staff();
        var leaving = MarketplaceFixtures.developer(staff, "leaving");
        var chat = leaving.api().post("/api/chat/completions", Map.of("message", "remember me"));
        assertThat(chat.status()).as(chat.toString()).isEqualTo(200);
        var conversation = java.util.UUID.fromString(chat.json().get("conversation_id").asText());
        assertThat(rows("SELECT count(*) FROM messages WHERE conversation_id = ?", conversation)).isEqualTo(2);
        var task = leaving.api().post("/api/tasks/submit", Map.of("prompt", "a task of mine"));
        assertThat(task.status()).as(task.toString()).isEqualTo(202);
        String key = leaving.api().post("/api-keys").json().get("api_key").asText();
        String listed = MarketplaceFixtures.submitted(leaving, MarketplaceFixtures.card(
                MarketplaceFixtures.unique("orphan")));
        MarketplaceFixtures.approve(staff, listed);
        String pending = MarketplaceFixtures.submitted(leaving, MarketplaceFixtures.card(
                MarketplaceFixtures.unique("orphan-pending")));
        assertThat(rows("SELECT count(*) FROM conversations WHERE user_id = ?", leaving.id())).isEqualTo(1);
        assertThat(rows("SELECT count(*) FROM tasks WHERE user_id = ?", leaving.id())).isEqualTo(1);
        var stays = Accounts.verified("stays");
        assertThat(stays.api().post("/api/chat/completions", Map.of("message", "not me")).status()).isEqualTo(200);

        var deleted = Accounts.admin().api().delete("/admin/users/" + leaving.id());
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);

        assertThat(rows("SELECT count(*) FROM conversations WHERE user_id = ?", leaving.id())).isZero();
        assertThat(rows("SELECT count(*) FROM messages WHERE conversation_id = ?", conversation)).isZero();
        assertThat(rows("SELECT count(*) FROM tasks WHERE user_id = ?", leaving.id())).isZero();
        assertThat(rows("SELECT count(*) FROM api_keys WHERE user_id = ?", leaving.id())).isZero();
        assertThat(Api.anonymous().header("Authorization", "Bearer " + key).get("/api/conversations").status())
                .isEqualTo(401);
        assertThat(rows("SELECT count(*) FROM conversations WHERE user_id = ?", stays.id())).as("others' stay")
                .isEqualTo(1);

        for (String agent : new String[] {listed, pending}) {
            var record = staff.api().get("/v1/agents/" + agent);
            assertThat(record.status()).as(record.toString()).isEqualTo(200);
            assertThat(record.json().get("status").asText()).as(agent).isEqualTo("suspended");
            var history = staff.api().get("/v1/agents/" + agent + "/history?sort=created_at").json().get("items");
            JsonNode last = history.get(history.size() - 1);
            assertThat(last.get("action").asText()).isEqualTo("taken_down");
            assertThat(last.get("reason_code").asText()).isEqualTo("author_deleted");
            assertThat(last.get("to_status").asText()).isEqualTo("suspended");
        }
        assertThat(Api.anonymous().get("/v1/agents/" + listed).status()).as("no longer listed").isEqualTo(404);
    }

    private static int rows(String sql, Object parameter) throws Exception {
        var server = AtriumServer.get();
        try (var c = DriverManager.getConnection(server.jdbcUrl(), AtriumServer.Services.postgresUser(), "");
             var q = c.prepareStatement(sql)) {
            q.setObject(1, parameter);
            try (var r = q.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }
}
