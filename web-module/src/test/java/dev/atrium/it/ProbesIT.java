package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The orchestrator's probes beside the spec's {@code /health}: each answers 200 in MicroProfile Health's format
 * ({@code status} and {@code checks} of {@code name}, {@code status}, {@code data}) with its own checks, and
 * {@code /health} keeps its own answer.
 */
@ExtendWith(AtriumServer.class)
class ProbesIT {

    @Test
    void whenTheServerRunsThenLivenessIsUpAndAsksNoBackend() {
        var live = probe("/health/live");
        assertThat(names(live)).containsExactly("threads");
        assertThat(live.get("checks").get(0).get("data").get("deadlocked").asInt()).isZero();
    }

    @Test
    void whenTheBackendsAnswerThenReadinessIsUpWithTheDatabaseAndTheStore() {
        var ready = probe("/health/ready");
        assertThat(names(ready)).containsExactly("database", "redis");
        for (JsonNode check : ready.get("checks")) {
            assertThat(check.get("status").asText()).isEqualTo("UP");
            assertThat(check.get("data").get("backend").asText()).isNotBlank();
        }
    }

    @Test
    void whenDeployedThenStartupIsUpWithTheSchemaVersion() {
        var started = probe("/health/started");
        assertThat(names(started)).containsExactly("deployment", "migrations");
        assertThat(started.get("checks").get(1).get("data").get("schemaVersion").asText()).matches("\\d+(\\.\\d+)*");
    }

    @Test
    void whenTheProbesAreServedThenHealthKeepsTheSpecsAnswer() {
        var health = Api.anonymous().get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("database").asText()).isEqualTo("ok");
        assertThat(health.json().get("redis").asText()).isEqualTo("ok");
        assertThat(health.json().has("checks")).isFalse();
    }

    private static JsonNode probe(String path) {
        var reply = Api.anonymous().get(path);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.json().get("status").asText()).isEqualTo("UP");
        for (JsonNode check : reply.json().get("checks")) {
            assertThat(check.get("status").asText()).as(check.toString()).isEqualTo("UP");
        }
        return reply.json();
    }

    private static List<String> names(JsonNode answer) {
        var names = new ArrayList<String>();
        answer.get("checks").forEach(c -> names.add(c.get("name").asText()));
        return names;
    }
}
