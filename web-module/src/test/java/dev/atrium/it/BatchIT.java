package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Jakarta Batch runs with its job repository in the application's own database. */
@ExtendWith(AtriumServer.class)
class BatchIT {

    @Test
    void whenAdministratorStartsAChunkJobThenItCompletesAndIsRecordedInTheApplicationDatabase() throws Exception {
        var admin = Accounts.admin();
        var started = admin.api().post("/admin/batch-jobs/it-sum-of-squares/executions?count=25");
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        String href = started.json().get("href").asText();
        long id = started.json().get("id").asLong();
        assertThat(started.header("Location")).isEqualTo(href);

        var execution = awaitEnd(admin.api(), href, Duration.ofSeconds(60));
        assertThat(execution.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(execution.get("exit_status").asText()).isEqualTo("SUM=5525");
        assertThat(execution.get("job_name").asText()).isEqualTo("it-sum-of-squares");

        try (var c = DriverManager.getConnection(AtriumServer.get().jdbcUrl(), "postgres", "");
             var s = c.prepareStatement("select batchstatus from jbatchexecutioninstancedata where jobexecid = ?")) {
            s.setLong(1, id);
            try (var rows = s.executeQuery()) {
                assertThat(rows.next()).as("execution row in the application database").isTrue();
                assertThat(rows.getString(1)).isEqualTo("COMPLETED");
            }
        }
    }

    @Test
    void whenNotAnAdministratorThenStartingAJobIsForbidden() {
        var user = Accounts.verified("nobatch");
        var reply = user.api().post("/admin/batch-jobs/it-sum-of-squares/executions");
        assertThat(reply.status()).isEqualTo(403);
        assertThat(Api.anonymous().post("/admin/batch-jobs/it-sum-of-squares/executions").status()).isEqualTo(401);
    }

    @Test
    void whenTheJobDoesNotExistThen404() {
        var admin = Accounts.admin();
        assertThat(admin.api().post("/admin/batch-jobs/no-such-job/executions").status()).isEqualTo(404);
        assertThat(admin.api().get("/admin/batch-executions/987654321").status()).isEqualTo(404);
    }

    static com.fasterxml.jackson.databind.JsonNode awaitEnd(Api api, String href, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            var reply = api.get(href);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            String status = reply.json().get("status").asText();
            if (!status.equals("STARTING") && !status.equals("STARTED")) {
                return reply.json();
            }
            Accounts.sleep(200);
        }
        throw new AssertionError("Job at " + href + " did not end within " + timeout);
    }
}
