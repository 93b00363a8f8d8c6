package dev.atrium.platform.boundary.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import jakarta.ws.rs.core.MediaType;

import org.junit.jupiter.api.Test;

class OpenApiResourceTest {

    private static final MediaType ANY = new MediaType();
    private static final MediaType YAML = new MediaType("application", "yaml");
    private static final MediaType TEXT_YAML = new MediaType("text", "yaml");

    @Test
    void whenNothingIsAskedThenJson() {
        assertThat(OpenApiResource.yaml(null, List.of(ANY))).isFalse();
    }

    @Test
    void whenFormatIsYamlThenYaml() {
        assertThat(OpenApiResource.yaml("yaml", List.of(MediaType.APPLICATION_JSON_TYPE))).isTrue();
    }

    @Test
    void whenFormatIsJsonThenJsonWhateverTheAcceptHeader() {
        assertThat(OpenApiResource.yaml("json", List.of(YAML))).isFalse();
    }

    @Test
    void whenAcceptPrefersYamlThenYaml() {
        assertThat(OpenApiResource.yaml(null, List.of(YAML, MediaType.APPLICATION_JSON_TYPE))).isTrue();
        assertThat(OpenApiResource.yaml(null, List.of(TEXT_YAML, ANY))).isTrue();
    }

    @Test
    void whenAcceptPrefersJsonOrAnythingThenJson() {
        assertThat(OpenApiResource.yaml(null, List.of(MediaType.APPLICATION_JSON_TYPE, YAML))).isFalse();
        assertThat(OpenApiResource.yaml(null, List.of(ANY, YAML))).isFalse();
    }
}
