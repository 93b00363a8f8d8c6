package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every spec path built so far is answered by the application, not by the runtime's own endpoints (Payara serves
 * its own health and OpenAPI by default), and is described in the application's OpenAPI document.
 */
@ExtendWith(AtriumServer.class)
class SpecPathsIT {

    record Endpoint(String method, String path, String documented) {
    }

    static final List<Endpoint> SPEC = List.of(
            new Endpoint("POST", "/register", "/register"),
            new Endpoint("GET", "/verify-email", "/verify-email"),
            new Endpoint("POST", "/login", "/login"),
            new Endpoint("GET", "/health", "/health"),
            new Endpoint("POST", "/api/v1/users", "/api/v1/users"),
            new Endpoint("POST", "/api/v1/auth/login", "/api/v1/auth/login"),
            new Endpoint("GET", "/api/v1/users/me", "/api/v1/users/me"),
            new Endpoint("GET", "/api/v1/articles", "/api/v1/articles"),
            new Endpoint("POST", "/api/v1/articles", "/api/v1/articles"),
            new Endpoint("GET", "/api/v1/articles/1", "/api/v1/articles/{id}"),
            new Endpoint("PATCH", "/api/v1/articles/1", "/api/v1/articles/{id}"),
            new Endpoint("DELETE", "/api/v1/articles/1", "/api/v1/articles/{id}"),
            new Endpoint("POST", "/api/v1/articles/1/publish", "/api/v1/articles/{id}/publish"),
            new Endpoint("GET", "/api/v1/articles/1/comments", "/api/v1/articles/{id}/comments"),
            new Endpoint("POST", "/api/v1/articles/1/comments", "/api/v1/articles/{id}/comments"),
            new Endpoint("DELETE", "/api/v1/comments/1", "/api/v1/comments/{id}"),
            new Endpoint("GET", "/api/v1/tags", "/api/v1/tags"),
            new Endpoint("GET", "/auth/unknown", "/auth/{provider}"),
            new Endpoint("GET", "/auth/unknown/callback", "/auth/{provider}/callback"),
            new Endpoint("POST", "/api/tasks/submit", "/api/tasks/submit"),
            new Endpoint("GET", "/api/tasks/" + new java.util.UUID(0, 1), "/api/tasks/{task_id}"),
            new Endpoint("GET", "/v1/agents/search?q=translate", "/v1/agents/search"),
            new Endpoint("POST", "/v1/recommendations", "/v1/recommendations"));

    @Test
    void whenAnySpecPathIsCalledThenTheApplicationAnswersInJson() {
        var api = Api.anonymous();
        for (var e : SPEC) {
            var reply = api.send(e.method(), e.path(), e.method().equals("GET") || e.method().equals("DELETE")
                    ? null : "{}", e.method().equals("GET") || e.method().equals("DELETE") ? null : "application/json");
            assertThat(reply.header("X-Request-ID")).as(e.toString()).isNotNull();
            assertThat(reply.header("Content-Type")).as(e.toString() + " " + reply).startsWith("application/json");
            assertThat(reply.status()).as(e.toString()).isNotIn(405, 415, 500);
        }
    }

    @Test
    void whenTheOpenApiDocumentIsAskedThenItIsTheApplicationsAndCoversEverySpecPath() {
        var reply = Api.anonymous().get("/openapi");
        assertThat(reply.status()).isEqualTo(200);
        var doc = reply.json();
        assertThat(doc.get("openapi").asText()).startsWith("3.");
        for (var e : SPEC) {
            var operation = doc.path("paths").path(e.documented()).path(e.method().toLowerCase());
            assertThat(operation.isMissingNode()).as(e.toString()).isFalse();
            assertThat(operation.path("responses").has("500")).as(e.toString()).isTrue();
        }
        assertThat(doc.at("/components/schemas/Error/properties/error")).isNotNull();
        var yaml = Api.anonymous().get("/openapi?format=yaml");
        assertThat(yaml.header("Content-Type")).startsWith("application/yaml");
        assertThat(yaml.body()).contains("/api/v1/articles");
    }

    @Test
    void whenPayaraHealthWouldAnswerThenTheApplicationsHealthShapeIsServedInstead() {
        var health = Api.anonymous().get("/health").json();
        assertThat(health.has("database")).isTrue();
        assertThat(health.has("checks")).as("not MicroProfile Health's shape").isFalse();
    }
}
