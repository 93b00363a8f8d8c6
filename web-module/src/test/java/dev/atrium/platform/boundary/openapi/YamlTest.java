package dev.atrium.platform.boundary.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

class YamlTest {

    @Test
    void whenTheDocumentIsWrittenThenItReadsBackAsTheSameTree() {
        var document = WarResources.document();

        assertThat(YamlReader.read(Yaml.write(document))).isEqualTo(document);
    }

    @Test
    void whenNestedContainersThenBlockStyleWithDashes() {
        var tree = Json.createObjectBuilder()
                .add("list", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("name", "a").add("in", "query"))
                        .add(Json.createArrayBuilder().add(1).add(2)))
                .add("empty", JsonValue.EMPTY_JSON_OBJECT)
                .add("none", JsonValue.EMPTY_JSON_ARRAY)
                .build();

        String yaml = Yaml.write(tree);

        assertThat(yaml).isEqualTo("""
                list:
                  - name: a
                    in: query
                  -
                    - 1
                    - 2
                empty: {}
                none: []
                """);
        assertThat(YamlReader.read(yaml)).isEqualTo(tree);
    }

    @Test
    void whenAStringCouldReadAsSomethingElseThenItIsQuoted() {
        assertThat(Yaml.string("3.0.3")).isEqualTo("\"3.0.3\"");
        assertThat(Yaml.string("200")).isEqualTo("\"200\"");
        assertThat(Yaml.string("true")).isEqualTo("\"true\"");
        assertThat(Yaml.string("No")).isEqualTo("\"No\"");
        assertThat(Yaml.string("null")).isEqualTo("\"null\"");
        assertThat(Yaml.string("")).isEqualTo("\"\"");
        assertThat(Yaml.string("-created_at")).isEqualTo("\"-created_at\"");
        assertThat(Yaml.string("#/components/schemas/Error")).isEqualTo("\"#/components/schemas/Error\"");
        assertThat(Yaml.string("a: b")).isEqualTo("\"a: b\"");
        assertThat(Yaml.string("/api/v1/articles/{id}")).isEqualTo("\"/api/v1/articles/{id}\"");
    }

    @Test
    void whenAStringIsAnOrdinaryWordThenItStaysPlain() {
        assertThat(Yaml.string("application/json")).isEqualTo("application/json");
        assertThat(Yaml.string("$ref")).isEqualTo("$ref");
        assertThat(Yaml.string("page_size")).isEqualTo("page_size");
    }

    @Test
    void whenAStringHasQuotesBackslashesOrControlCharactersThenTheyAreEscaped() {
        String text = "say \"hi\"\\\n\tnow\u0007\u2028";

        String written = Yaml.string(text);

        assertThat(written).isEqualTo("\"say \\\"hi\\\"\\\\\\n\\tnow\\u0007\\u2028\"");
        assertThat(YamlReader.read("k: " + written + "\n"))
                .isEqualTo(Json.createObjectBuilder().add("k", text).build());
    }

    @Test
    void whenTheRootIsAScalarThenOneLine() {
        assertThat(Yaml.write(Json.createValue("x y"))).isEqualTo("\"x y\"\n");
        assertThat(Yaml.write(JsonValue.EMPTY_JSON_OBJECT)).isEqualTo("{}\n");
    }
}
