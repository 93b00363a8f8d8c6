package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Every path of the spec tables built so far (spec 01, 02 and 03) is routed to the application, answered in its
 * JSON envelope and described with its method in the application's OpenAPI document. The runtime's own endpoints
 * (Payara serves health and OpenAPI by default) must not answer in its place.
 *
 * <p>A call may be refused (401, 403, 409, 422...) but never with 405, 415 or 500, and never with the 404 the
 * application gives an unknown path: that is a path the spec lists and nothing serves. A 404 from a resource that
 * looked the id up ("Task not found") is fine for the ids that cannot exist; the content paths use an article and a
 * comment created here, so for them no 404 is expected at all.
 */
@ExtendWith(AtriumServer.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpecPathsIT {

    enum Caller { ANONYMOUS, USER, ADMIN }

    /** A spec row: the call made, the documented path template, who calls, and whether a 404 may be the answer. */
    record Endpoint(String method, String path, String documented, Caller caller, boolean mayBeMissing) {
        static Endpoint of(String method, String path, Caller caller) {
            return new Endpoint(method, path, path.replaceFirst("\\?.*", ""), caller, false);
        }

        static Endpoint template(String method, String path, String documented, Caller caller,
                                 boolean mayBeMissing) {
            return new Endpoint(method, path, documented, caller, mayBeMissing);
        }

        @Override
        public String toString() {
            return method + " " + path + " as " + caller;
        }
    }

    private static final String NO_ID = "999999999";
    private static final String NO_UUID = new UUID(0, 1).toString();

    private Accounts.Account user;
    private Accounts.Account admin;
    private List<Endpoint> spec;
    private JsonNode document;
    private String unknownPathMessage;

    @BeforeAll
    void createTheResourcesThePathsName() {
        user = Accounts.verified("spec");
        admin = Accounts.admin();
        var article = user.api().post("/api/v1/articles", Map.of("title", "Spec paths " + UUID.randomUUID(),
                "body", "A body"));
        assertThat(article.status()).as(article.toString()).isEqualTo(201);
        String articleId = article.json().get("id").asText();
        var comment = user.api().post("/api/v1/articles/" + articleId + "/comments", Map.of("body", "A comment"));
        assertThat(comment.status()).as(comment.toString()).isEqualTo(201);
        String commentId = comment.json().get("id").asText();
        String articlePath = "/api/v1/articles/" + articleId;
        spec = List.of(
                // spec 01: identity
                Endpoint.of("POST", "/register", Caller.ANONYMOUS),
                Endpoint.of("GET", "/verify-email", Caller.ANONYMOUS),
                Endpoint.of("POST", "/login", Caller.ANONYMOUS),
                Endpoint.of("POST", "/refresh", Caller.ANONYMOUS),
                Endpoint.template("GET", "/auth/unknown", "/auth/{provider}", Caller.ANONYMOUS, true),
                Endpoint.template("GET", "/auth/unknown/callback", "/auth/{provider}/callback", Caller.ANONYMOUS,
                        true),
                Endpoint.of("GET", "/me/permissions", Caller.USER),
                Endpoint.of("GET", "/admin/users", Caller.ADMIN),
                Endpoint.template("DELETE", "/admin/users/" + NO_ID, "/admin/users/{id}", Caller.ADMIN, true),
                Endpoint.of("POST", "/sso/login", Caller.ANONYMOUS),
                Endpoint.of("GET", "/csrf-token", Caller.ANONYMOUS),
                // spec 02: content, under /api/v1
                Endpoint.of("POST", "/api/v1/users", Caller.ANONYMOUS),
                Endpoint.of("POST", "/api/v1/auth/login", Caller.ANONYMOUS),
                Endpoint.of("GET", "/api/v1/users/me", Caller.USER),
                Endpoint.of("GET", "/api/v1/articles", Caller.ANONYMOUS),
                Endpoint.of("POST", "/api/v1/articles", Caller.USER),
                Endpoint.template("GET", articlePath, "/api/v1/articles/{id}", Caller.USER, false),
                Endpoint.template("PATCH", articlePath, "/api/v1/articles/{id}", Caller.USER, false),
                Endpoint.template("POST", articlePath + "/publish", "/api/v1/articles/{id}/publish", Caller.USER,
                        false),
                Endpoint.template("GET", articlePath + "/comments", "/api/v1/articles/{id}/comments", Caller.USER,
                        false),
                Endpoint.template("POST", articlePath + "/comments", "/api/v1/articles/{id}/comments", Caller.USER,
                        false),
                Endpoint.template("DELETE", "/api/v1/comments/" + commentId, "/api/v1/comments/{id}", Caller.USER,
                        false),
                Endpoint.of("GET", "/api/v1/tags", Caller.ANONYMOUS),
                // spec 02: AI backend
                Endpoint.of("POST", "/api/chat/completions", Caller.USER),
                Endpoint.of("POST", "/api/chat/stream", Caller.USER),
                Endpoint.template("GET", "/api/chat/stream/resume/" + NO_UUID + "?last_offset=0",
                        "/api/chat/stream/resume/{message_id}", Caller.USER, true),
                Endpoint.of("POST", "/api/chat/smart-stream", Caller.USER),
                Endpoint.of("POST", "/api/tasks/submit", Caller.USER),
                Endpoint.template("GET", "/api/tasks/" + NO_UUID, "/api/tasks/{task_id}", Caller.USER, true),
                Endpoint.of("POST", "/api/files/upload", Caller.USER),
                Endpoint.of("GET", "/api/files", Caller.USER),
                Endpoint.of("POST", "/api-keys", Caller.USER),
                Endpoint.of("GET", "/api/admin/users", Caller.ADMIN),
                Endpoint.of("GET", "/health", Caller.ANONYMOUS),
                // spec 03: marketplace (reviews are not built yet)
                Endpoint.template("POST", "/v1/agents/" + NO_UUID + "/invoke", "/v1/agents/{agent_id}/invoke",
                        Caller.USER, true),
                Endpoint.of("GET", "/v1/agents/search?q=translate", Caller.ANONYMOUS),
                Endpoint.of("GET", "/v1/agents", Caller.ANONYMOUS),
                Endpoint.of("POST", "/v1/recommendations", Caller.USER),
                // last: the caller's session ends, the article goes
                Endpoint.template("DELETE", articlePath, "/api/v1/articles/{id}", Caller.USER, false),
                Endpoint.of("POST", "/logout", Caller.USER));
        document = Api.anonymous().get("/openapi").json();
        var unknown = admin.api().get("/api/v1/no-such-path-" + UUID.randomUUID());
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
        unknownPathMessage = unknown.json().path("error").path("message").asText();
        assertThat(unknownPathMessage).isNotBlank();
    }

    @Test
    void whenAnySpecPathIsCalledThenTheApplicationRoutesItAndAnswersInJson() {
        var failures = new ArrayList<String>();
        for (var e : spec) {
            var reply = call(e);
            String message = reply.status() >= 400 ? reply.json().path("error").path("message").asText() : "";
            if (reply.header("X-Request-ID") == null) {
                failures.add(e + ": no X-Request-ID, not the application's answer: " + reply);
            } else if (!String.valueOf(reply.header("Content-Type")).startsWith("application/json")
                    && reply.status() != 204) {
                failures.add(e + ": not JSON: " + reply.header("Content-Type") + " " + reply);
            } else if (List.of(405, 415, 500).contains(reply.status())) {
                failures.add(e + ": " + reply);
            } else if (reply.status() == 404 && (!e.mayBeMissing() || message.equals(unknownPathMessage))) {
                failures.add(e + ": 404 where the spec lists a path: " + reply);
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void whenAPathIsUnknownThenItsAnswerIsTheOneTheCheckAboveRefuses() {
        var reply = user.api().post("/api/v1/articles/1/no-such-action", Map.of());

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.json().path("error").path("message").asText()).isEqualTo(unknownPathMessage);
    }

    @Test
    void whenTheOpenApiDocumentIsAskedThenItIsTheApplicationsAndCoversEverySpecPath() {
        assertThat(document.path("openapi").asText()).startsWith("3.");
        for (var e : spec) {
            var operation = document.path("paths").path(e.documented()).path(e.method().toLowerCase());
            assertThat(operation.isMissingNode()).as(e + " documented as " + e.documented()).isFalse();
            var serverError = operation.path("responses").path("500");
            if (serverError.has("$ref")) {
                serverError = document.at(serverError.get("$ref").asText().substring(1));
            }
            assertThat(serverError.path("content").path("application/json").path("schema").path("$ref").asText())
                    .as(e.toString()).isEqualTo("#/components/schemas/Error");
        }
        assertThat(document.path("components").path("schemas").path("Error").path("properties").path("error")
                .isMissingNode()).isFalse();
    }

    @Test
    void whenYamlIsAskedThenTheSameDocumentIsServedAsYaml() throws Exception {
        var byQuery = Api.anonymous().get("/openapi?format=yaml");
        var byAccept = Api.anonymous().header("Accept", "application/yaml").get("/openapi");

        assertThat(byQuery.status()).isEqualTo(200);
        assertThat(byQuery.header("Content-Type")).startsWith("application/yaml");
        assertThat(byAccept.header("Content-Type")).startsWith("application/yaml");
        var yaml = new ObjectMapper(new YAMLFactory()).readTree(byQuery.body());
        assertThat(yaml).isEqualTo(document);
    }

    @Test
    void whenPayaraHealthWouldAnswerThenTheApplicationsHealthShapeIsServedInstead() {
        var health = Api.anonymous().get("/health").json();
        assertThat(health.has("database")).isTrue();
        assertThat(health.has("checks")).as("not MicroProfile Health's shape").isFalse();
    }

    /** Calls the path as the spec row says, with a body of the documented request type when there is one. */
    private Reply call(Endpoint e) {
        Api api = switch (e.caller()) {
            case ANONYMOUS -> Api.anonymous();
            case USER -> user.api();
            case ADMIN -> admin.api();
        };
        JsonNode content = document.path("paths").path(e.documented()).path(e.method().toLowerCase())
                .path("requestBody").path("content");
        if (content.has("application/json")) {
            return api.send(e.method(), e.path(), "{}", "application/json");
        }
        if (content.has("multipart/form-data")) {
            String boundary = "----spec" + UUID.randomUUID().toString().replace("-", "");
            String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\""
                    + "\r\nContent-Type: text/plain\r\n\r\nspec paths\r\n--" + boundary + "--\r\n";
            return api.send(e.method(), e.path(), body.getBytes(StandardCharsets.UTF_8),
                    "multipart/form-data; boundary=" + boundary);
        }
        if (content.has("application/x-www-form-urlencoded")) {
            return api.send(e.method(), e.path(), "", "application/x-www-form-urlencoded");
        }
        return api.send(e.method(), e.path(), null, null);
    }
}
