package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The daily usage report batch job: per user and model, requests, tokens and cost, as CSV and JSON. */
@ExtendWith(AtriumServer.class)
class UsageReportIT {

    /** The price per 1000 tokens the test server gives the test model server's {@code scripted} model. */
    static final String SCRIPTED_INPUT_PRICE = "0.5";
    static final String SCRIPTED_OUTPUT_PRICE = "2";

    @Test
    void whenEveryChannelIsUsedThenTheReportCountsEachCallAtTheModelsPrice() throws Exception {
        assumeFalse(AtriumServer.get().embedded());
        var user = Accounts.verified("billed");
        String model = TestModelServer.SCRIPTED;
        var chat = user.api().post("/api/chat/completions", Map.of("message", "bill the chat", "model", model));
        assertThat(chat.status()).as(chat.toString()).isEqualTo(200);
        var stream = EventStream.post("/api/chat/stream", user.accessToken(),
                Map.of("message", "bill the stream", "model", model));
        assertThat(stream.events().get(stream.events().size() - 1).data().get("type").asText()).isEqualTo("done");
        var smart = EventStream.post("/api/chat/smart-stream", user.accessToken(),
                Map.of("message", "bill the smart stream", "model", model));
        assertThat(smart.events().get(smart.events().size() - 1).data().get("type").asText()).isEqualTo("done");
        var socket = ChatSocketIT.connect("/ws/chat/" + user.id(), user.accessToken());
        socket.socket.sendText("{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"bill the socket\"}]}", true);
        assertThat(socket.untilDone()).last().satisfies(f -> assertThat(f.get("type").asText()).isEqualTo("done"));
        socket.socket.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
        var task = user.api().post("/api/tasks/submit", Map.of("prompt", "bill the task", "model", model));
        assertThat(task.status()).as(task.toString()).isEqualTo(202);
        String taskHref = "/api/tasks/" + task.json().get("task_id").asText();
        for (int i = 0; i < 100 && !user.api().get(taskHref).json().get("status").asText().equals("success"); i++) {
            Accounts.sleep(200);
        }
        assertThat(user.api().get(taskHref).json().get("status").asText()).isEqualTo("success");

        String today = LocalDate.now(ZoneOffset.UTC).toString();
        var admin = Accounts.admin();
        var started = admin.api().post("/api/admin/reports", Map.of("date", today));
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        var execution = BatchIT.awaitEnd(admin.api(), started.json().get("href").asText(), Duration.ofSeconds(60));
        assertThat(execution.get("status").asText()).isEqualTo("COMPLETED");

        var json = admin.api().get("/api/admin/reports/" + today + ".json").json();
        var row = json.get("rows").findParents("user_id").stream()
                .filter(r -> r.get("user_id").asLong() == user.id() && r.get("model").asText().equals(model))
                .findFirst().orElseThrow();
        assertThat(row.get("requests").asLong()).as("chat, stream, smart-stream, WebSocket and task").isEqualTo(5);
        // the test model counts words: "bill the X" is 3 (4 for the smart stream), "Scripted: bill the X" one more
        assertThat(row.get("input_tokens").asLong()).isEqualTo(3 + 3 + 4 + 3 + 3);
        assertThat(row.get("output_tokens").asLong()).isEqualTo(4 + 4 + 5 + 4 + 4);
        var expected = new BigDecimal(SCRIPTED_INPUT_PRICE).multiply(BigDecimal.valueOf(16))
                .add(new BigDecimal(SCRIPTED_OUTPUT_PRICE).multiply(BigDecimal.valueOf(21)))
                .divide(BigDecimal.valueOf(1000));
        assertThat(row.get("cost").decimalValue()).isEqualByComparingTo(expected);
        var csv = admin.api().get("/api/admin/reports/" + today + ".csv").body();
        assertThat(csv).contains("\n" + user.id() + "," + model + ",5,16,21,37," + expected.setScale(6)
                .toPlainString() + "\n");
    }

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
