package dev.atrium.platform.boundary.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.bind.config.PropertyNamingStrategy;

import org.eclipse.yasson.internal.model.customization.StrategiesProvider;
import org.junit.jupiter.api.Test;

class OpenApiGeneratorTest {

    private static final String REF = "#/components/schemas/";

    private final JsonObject document = OpenApiGenerator.document("Fixtures", "1", "/",
            List.of(Fixtures.FixtureResource.class));
    private final JsonObject paths = document.getJsonObject("paths");
    private final JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");

    @Test
    void whenAPathTemplateHasRegularExpressionsThenOnlyTheNamesRemain() {
        var regexes = new HashMap<String, String>();

        String path = OpenApiGenerator.path(regexes, "/", "api/", "/{id: [0-9]{1,5}}/{ slug }/");

        assertThat(path).isEqualTo("/api/{id}/{slug}");
        assertThat(regexes).containsOnly(java.util.Map.entry("id", "[0-9]{1,5}"));
        assertThat(OpenApiGenerator.path(new HashMap<>(), "/", "/")).isEqualTo("/");
    }

    @Test
    void whenParametersThenTheirPlaceTypeRequirednessAndDefaults() {
        JsonArray parameters = paths.getJsonObject("/fixtures/{id}/{slug}").getJsonObject("get")
                .getJsonArray("parameters");

        assertThat(parameter(parameters, "id")).containsEntry("in", Json.createValue("path"))
                .containsEntry("required", JsonValue.TRUE);
        assertThat(parameter(parameters, "id").getJsonObject("schema"))
                .containsEntry("format", Json.createValue("int64")).doesNotContainKey("pattern");
        assertThat(parameter(parameters, "slug").getJsonObject("schema").getString("pattern"))
                .isEqualTo("^(?:[a-z-]+)$");
        assertThat(parameter(parameters, "X-Trace")).containsEntry("in", Json.createValue("header"))
                .containsEntry("required", JsonValue.FALSE);
        assertThat(parameter(parameters, "X-Trace").getJsonObject("schema").getString("default")).isEqualTo("none");
        JsonObject n = parameter(parameters, "n").getJsonObject("schema");
        assertThat(n.getInt("default")).isEqualTo(5);
        assertThat(n.getInt("maximum")).isEqualTo(50);
    }

    @Test
    void whenPermitAllThenNoSecurityAndNoAuthenticationErrors() {
        JsonObject get = paths.getJsonObject("/fixtures/{id}/{slug}").getJsonObject("get");

        assertThat(get).doesNotContainKey("security");
        assertThat(get.getJsonObject("responses")).doesNotContainKeys("401", "403")
                .containsKeys("200", "400", "404", "405", "415", "422", "429", "500");
        assertThat(get.getString("summary")).isEqualTo("One sample");
        assertThat(get.getJsonArray("tags")).containsExactly(Json.createValue("fixtures"));
        assertThat(document.getJsonArray("tags")).containsExactly(Json.createObjectBuilder()
                .add("name", "fixtures").add("description", "Test resources").build());
    }

    @Test
    void whenRolesAllowedThenBearerSecurityAndTheRoleInTheForbiddenAnswer() {
        JsonObject form = paths.getJsonObject("/fixtures/form").getJsonObject("post");

        assertThat(form.getJsonArray("security")).hasSize(1);
        assertThat(form.getJsonObject("responses").getJsonObject("401")).isNotNull();
        assertThat(form.getJsonObject("responses").getJsonObject("403").getString("description")).contains("admin");
    }

    @Test
    void whenFormParametersThenAnUrlEncodedBody() {
        JsonObject body = paths.getJsonObject("/fixtures/form").getJsonObject("post").getJsonObject("requestBody");
        JsonObject schema = body.getJsonObject("content").getJsonObject("application/x-www-form-urlencoded")
                .getJsonObject("schema");

        assertThat(body.getBoolean("required")).isTrue();
        assertThat(schema.getJsonObject("properties")).containsKeys("name", "age");
        assertThat(schema.getJsonArray("required")).containsExactly(Json.createValue("name"));
    }

    @Test
    void whenADeclaredResponseHasContentThenItsSchemaIsReferenced() {
        JsonObject created = paths.getJsonObject("/fixtures/form").getJsonObject("post").getJsonObject("responses")
                .getJsonObject("201");

        assertThat(created.getJsonObject("content").getJsonObject("application/json").getJsonObject("schema")
                .getString("$ref")).isEqualTo(REF + "Sample");
    }

    @Test
    void whenGenericTypesThenOneSchemaPerTypeArgument() {
        JsonObject post = paths.getJsonObject("/fixtures").getJsonObject("post");

        assertThat(post.getJsonObject("requestBody").getBoolean("required")).isTrue();
        assertThat(post.getJsonObject("requestBody").getJsonObject("content").getJsonObject("application/json")
                .getJsonObject("schema").getString("$ref")).isEqualTo(REF + "Page_Sample");
        assertThat(post.getJsonObject("responses").getJsonObject("200").getJsonObject("content")
                .getJsonObject("application/json").getJsonObject("schema").getString("$ref"))
                .isEqualTo(REF + "Page_Node");
        assertThat(schemas.getJsonObject("Page_Sample").getJsonObject("properties").getJsonObject("items")
                .getJsonObject("items").getString("$ref")).isEqualTo(REF + "Sample");
        assertThat(post.getJsonArray("parameters")).extracting(p -> p.asJsonObject().getString("name"))
                .containsExactly("Idempotency-Key");
    }

    @Test
    void whenARecordRefersToItselfThenItsSchemaRefersToItself() {
        JsonObject children = schemas.getJsonObject("Node").getJsonObject("properties").getJsonObject("children");

        assertThat(children.getJsonObject("items").getString("$ref")).isEqualTo(REF + "Node");
    }

    @Test
    void whenRecordComponentsThenTypesFormatsAndConstraints() {
        JsonObject sample = schemas.getJsonObject("Sample");
        JsonObject p = sample.getJsonObject("properties");

        assertThat(p.getJsonObject("rating")).containsEntry("type", Json.createValue("integer"))
                .containsEntry("minimum", Json.createValue(1)).containsEntry("maximum", Json.createValue(10));
        assertThat(p.getJsonObject("positive")).containsEntry("format", Json.createValue("int64"))
                .containsEntry("minimum", Json.createValue(1));
        assertThat(p.getJsonObject("count")).containsEntry("minimum", Json.createValue(0))
                .containsEntry("nullable", JsonValue.TRUE);
        assertThat(p.getJsonObject("email")).containsEntry("format", Json.createValue("email"))
                .containsEntry("minLength", Json.createValue(1));
        assertThat(p.getJsonObject("labels")).containsEntry("type", Json.createValue("array"))
                .containsEntry("minItems", Json.createValue(1));
        assertThat(p.getJsonObject("ids")).containsEntry("uniqueItems", JsonValue.TRUE);
        assertThat(p.getJsonObject("ids").getJsonObject("items")).containsEntry("format", Json.createValue("uuid"));
        assertThat(p.getJsonObject("scores").getJsonObject("additionalProperties"))
                .containsEntry("type", Json.createValue("integer"));
        assertThat(p.getJsonObject("day")).containsEntry("format", Json.createValue("date"));
        assertThat(p.getJsonObject("at")).containsEntry("format", Json.createValue("date-time"));
        assertThat(p.getJsonObject("colour").getJsonArray("enum"))
                .containsExactly(Json.createValue("red"), Json.createValue("dark_blue"));
        assertThat(p.getJsonObject("price").getJsonArray("allOf").getJsonObject(0).getString("$ref"))
                .isEqualTo(REF + "Money");
        assertThat(p.getJsonObject("anything")).containsOnlyKeys("nullable");
        assertThat(p.getJsonObject("extra")).containsEntry("type", Json.createValue("object"));
        assertThat(p.getJsonObject("documented")).containsEntry("description", Json.createValue("Shown"))
                .containsEntry("example", Json.createValue(7));
        assertThat(p.getJsonObject("ratio")).containsEntry("type", Json.createValue("number"));
        assertThat(schemas.getJsonObject("Money").getJsonObject("properties").getJsonObject("currency"))
                .containsEntry("pattern", Json.createValue("[A-Z]{3}"));
        assertThat(sample.getJsonArray("required")).containsExactly(Json.createValue("rating"),
                Json.createValue("positive"), Json.createValue("email"), Json.createValue("labels"),
                Json.createValue("ratio"));
    }

    @Test
    void whenJsonbAnnotationsThenRenamedAndTransientPropertiesAreHonoured() {
        JsonObject p = schemas.getJsonObject("Sample").getJsonObject("properties");

        assertThat(p).containsKeys("renamed", "camel_case_name").doesNotContainKeys("original", "hidden");
    }

    @Test
    void whenTwoTypesShareASimpleNameThenEachHasItsOwnSchema() {
        JsonObject put = paths.getJsonObject("/fixtures/items").getJsonObject("put");
        String body = put.getJsonObject("requestBody").getJsonObject("content").getJsonObject("application/json")
                .getJsonObject("schema").getString("$ref");
        String answer = put.getJsonObject("responses").getJsonObject("200").getJsonObject("content")
                .getJsonObject("application/json").getJsonObject("schema").getString("$ref");

        assertThat(body).isNotEqualTo(answer);
        assertThat(schemas.keySet()).contains(body.substring(REF.length()), answer.substring(REF.length()));
    }

    @Test
    void whenAMethodAnswersNothingThenNoContent() {
        assertThat(paths.getJsonObject("/fixtures/{id}").getJsonObject("delete").getJsonObject("responses"))
                .containsKey("204").doesNotContainKey("200");
        assertThat(paths.getJsonObject("/fixtures").getJsonObject("head").getJsonObject("responses"))
                .containsKey("204");
    }

    @Test
    void whenOnlyAnErrorIsDeclaredThenTheSuccessComesFromTheReturnTypeAndTheErrorHasTheEnvelope() {
        JsonObject responses = paths.getJsonObject("/fixtures/money").getJsonObject("get").getJsonObject("responses");

        assertThat(responses.getJsonObject("200").getJsonObject("content").getJsonObject("application/json")
                .getJsonObject("schema").getString("$ref")).isEqualTo(REF + "Money");
        assertThat(responses.getJsonObject("409").getString("description")).isEqualTo("Already spent");
        assertThat(responses.getJsonObject("409").getJsonObject("content").getJsonObject("application/json")
                .getJsonObject("schema").getString("$ref")).isEqualTo(REF + "Error");
    }

    @Test
    void whenAnOperationIsHiddenThenItIsLeftOut() {
        assertThat(paths).doesNotContainKey("/fixtures/hidden");
    }

    @Test
    void whenTwoMethodsShareAPathAndMethodThenOneOperationOffersBothMediaTypes() {
        JsonObject get = paths.getJsonObject("/fixtures/variants").getJsonObject("get");

        assertThat(get.getJsonObject("responses").getJsonObject("200").getJsonObject("content"))
                .containsOnlyKeys("application/json", "text/plain");
        assertThat(get.getString("operationId")).isEqualTo("FixtureResource_json");
    }

    @Test
    void whenAJavaNameIsTranslatedThenItIsWhatJsonbWrites() {
        PropertyNamingStrategy jsonb = StrategiesProvider.getPropertyNamingStrategy(
                PropertyNamingStrategy.LOWER_CASE_WITH_UNDERSCORES);

        for (String name : List.of("id", "pageSize", "_links", "nextCursor", "docUrl", "sha256Hash", "aB", "URL",
                "urlValue", "HTMLParser", "already_snake", "x1Y2", "camelCaseName")) {
            assertThat(SchemaRegistry.jsonName(name)).as(name).isEqualTo(jsonb.translateName(name));
        }
    }

    private static JsonObject parameter(JsonArray parameters, String name) {
        return parameters.stream().map(JsonValue::asJsonObject).filter(p -> p.getString("name").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no parameter " + name));
    }
}
