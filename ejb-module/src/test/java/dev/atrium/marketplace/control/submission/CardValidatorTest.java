package dev.atrium.marketplace.control.submission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import jakarta.json.Json;

import org.junit.jupiter.api.Test;

import dev.atrium.marketplace.entity.SemanticVersion;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

class CardValidatorTest {

    private static final CardValidator VALIDATOR = new CardValidator();

    private static List<String> pointers(CardValidator.Result result) {
        return result.problems().stream().map(SubmissionProblem::pointer).toList();
    }

    @Test
    void whenTheCardIsValidThenItsValuesAreRead() {
        var result = VALIDATOR.validate(Cards.VALID, true);

        assertThat(result.problems()).isEmpty();
        var card = result.card();
        assertThat(card.name()).isEqualTo("pdf-summarizer");
        assertThat(card.version()).isEqualTo(new SemanticVersion(1, 2, 3));
        assertThat(card.capabilities()).containsExactly("summarize-documents", "extract-key-points");
        assertThat(card.entrypoint()).containsExactly("python3", "main.py");
        assertThat(card.qualityScore()).isEqualTo(4.5);
        assertThat(card.claimedTrustLevel()).isEqualTo("community_verified");
        assertThat(card.testCases()).isEqualTo(1);
        assertThat(card.embeddingText()).contains("PDF Summarizer", "summarize documents", "pdf", "documents");
    }

    @Test
    void whenSeveralThingsAreWrongThenEveryProblemIsListedWithItsPointer() {
        String card = Cards.with(b -> b.remove("description").add("name", "Not A Slug").add("version", "1.2")
                .add("quality_score", 7).add("tags", Json.createArrayBuilder().add(3)));

        var result = VALIDATOR.validate(card, true);

        assertThat(result.valid()).isFalse();
        assertThat(pointers(result)).contains("/description", "/name", "/version", "/quality_score", "/tags/0");
        assertThat(result.problems()).allSatisfy(p -> {
            assertThat(p.part()).isEqualTo("card");
            assertThat(p.message()).isNotBlank();
        });
    }

    @Test
    void whenNotJsonThenMalformedAndWhenNotAnObjectThenOneProblemAtTheRoot() {
        for (String malformed : new String[] {"{not json", "[".repeat(10_000), "{\"a\":".repeat(1_000)}) {
            assertThatThrownBy(() -> VALIDATOR.validate(malformed, false))
                    .isInstanceOfSatisfying(BusinessException.class,
                            e -> assertThat(e.problem()).isEqualTo(Problem.BAD_REQUEST));
        }
        assertThat(VALIDATOR.validate("[1, 2]", false).problems()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("JSON object"));
    }

    @Test
    void whenInputSchemaIsNotAValidJsonSchemaThenItIsNamed() {
        String card = Cards.with(b -> b.add("input_schema", Json.createObjectBuilder().add("type", "object")
                .add("properties", Json.createObjectBuilder().add("url", Json.createObjectBuilder()
                        .add("type", "strin")))));

        var result = VALIDATOR.validate(card, true);

        assertThat(pointers(result)).anyMatch(p -> p.startsWith("/input_schema/properties/url/type"));
    }

    @Test
    void whenOutputSchemaIsNotAnObjectSchemaThenItIsNamed() {
        String card = Cards.with(b -> b.add("output_schema", Json.createObjectBuilder().add("type", "string")));

        assertThat(pointers(VALIDATOR.validate(card, true))).contains("/output_schema/type");
    }

    @Test
    void whenATestCaseInputDoesNotSatisfyTheInputSchemaThenItIsNamed() {
        String card = Cards.with(b -> b.add("test_cases", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("input", Json.createObjectBuilder().add("style", "poem"))
                .add("expected", Json.createObjectBuilder()))));

        var pointers = pointers(VALIDATOR.validate(card, true));

        assertThat(pointers).contains("/test_cases/0/input/url", "/test_cases/0/input/style");
    }

    @Test
    void whenABundleComesWithoutEntrypointThenTheEntrypointIsRequired() {
        String card = Cards.with(b -> b.add("runtime", Json.createObjectBuilder().add("docker_image", "x:1.2.3")));

        assertThat(pointers(VALIDATOR.validate(card, true))).containsExactly("/runtime/entrypoint");
        assertThat(VALIDATOR.validate(card, false).valid()).isTrue();
    }

    @Test
    void whenNoBundleAndNoImageThenTheImageIsRequired() {
        assertThat(pointers(VALIDATOR.validate(Cards.VALID, false))).containsExactly("/runtime/docker_image");
    }

    @Test
    void whenADependencyRangeIsMalformedThenItIsNamed() {
        String card = Cards.with(b -> b.add("dependencies", Json.createObjectBuilder().add("agents",
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "ocr-agent")
                        .add("version", "about one")))));

        assertThat(pointers(VALIDATOR.validate(card, true))).contains("/dependencies/agents/0/version");
    }

    @Test
    void whenTheSchemaRefersToARemoteDocumentThenItIsNotFetched() {
        String card = Cards.with(b -> b.add("input_schema", Json.createObjectBuilder().add("type", "object")
                .add("properties", Json.createObjectBuilder().add("x", Json.createObjectBuilder()
                        .add("$ref", "http://127.0.0.1:9/remote.json")))));

        long started = System.nanoTime();
        var result = VALIDATOR.validate(card, true);

        assertThat(result.valid()).isFalse();
        assertThat(pointers(result)).anyMatch(p -> p.startsWith("/input_schema"));
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
    }

    @Test
    void whenTheSchemaIsServedThenItIsDraft2020Twelve() {
        assertThat(CardValidator.schemaText()).contains("https://json-schema.org/draft/2020-12/schema");
    }

    @Test
    void whenADependencyRangeUsesCaretTildeOrAConjunctionThenValid() {
        for (String range : new String[] {"^1.2.0", "~1.2.0", ">=1.0.0 <2.0.0", "*", "1.2.3"}) {
            String card = Cards.with(b -> b.add("dependencies", Json.createObjectBuilder().add("agents",
                    Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "ocr-agent")
                            .add("version", range)))));
            assertThat(VALIDATOR.validate(card, true).valid()).as(range).isTrue();
        }
    }

    @Test
    void whenAnAgentDependsOnItselfThenTheDependencyIsNamed() {
        String card = Cards.with(b -> b.add("dependencies", Json.createObjectBuilder().add("agents",
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("name", "pdf-summarizer")
                        .add("version", "*")))));

        assertThat(pointers(VALIDATOR.validate(card, true))).containsExactly("/dependencies/agents/0/name");
    }

    @Test
    void whenTheImageTagIsNotTheVersionThenTheImageIsNamed() {
        for (String image : new String[] {"x:1", "x", "registry:5000/x", "r/x@sha256:abc", "r/x:1.2.4", "r/x:latest",
                "r/x:v1.2.3"}) {
            String card = Cards.with(b -> b.add("runtime", Json.createObjectBuilder().add("docker_image", image)));
            assertThat(pointers(VALIDATOR.validate(card, false))).as(image).containsExactly("/runtime/docker_image");
        }
        for (String image : new String[] {"x:1.2.3", "registry:5000/team/x:1.2.3", "r/x:1.2.3@sha256:abc"}) {
            String card = Cards.with(b -> b.add("runtime", Json.createObjectBuilder().add("docker_image", image)));
            assertThat(VALIDATOR.validate(card, false).valid()).as(image).isTrue();
        }
    }
}
