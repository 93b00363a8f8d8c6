package dev.atrium.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

class InitCommandTest {

    /** The card schema the server validates submissions with and serves at /v1/schemas/agent-card. */
    private static final Path CARD_SCHEMA = Path.of("..", "ejb-module", "src", "main", "resources", "marketplace",
            "agent-card.schema.json");

    @TempDir
    Path home;

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));

    private static void assertValid(String schema, JsonNode instance, String what) {
        var errors = SCHEMAS.getSchema(schema, InputFormat.JSON).validate(instance.toString(), InputFormat.JSON);
        assertThat(errors).as(what).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"python", "shell"})
    void whenInitialisedThenTheCardIsValidAndTheAgentPassesItsOwnTestCases(String template) throws Exception {
        var result = new CliRun(home).run("init", "word-count", "--template", template, "-C", home.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        Path dir = home.resolve("word-count");
        assertThat(dir.resolve("README.md")).exists();
        assertThat(Files.readString(dir.resolve(".agentignore"))).contains(".git/");
        JsonNode card = Output.JSON.readTree(dir.resolve("agent.json").toFile());
        assertValid(Files.readString(CARD_SCHEMA), card, "the card");
        assertThat(card.get("name").asText()).isEqualTo("word-count");
        assertThat(card.get("test_cases")).hasSize(3);

        var command = new ArrayList<String>();
        card.get("runtime").get("entrypoint").forEach(part -> command.add(part.asText()));
        for (JsonNode test : card.get("test_cases")) {
            assertValid(card.get("input_schema").toString(), test.get("input"), "input of " + test.get("name"));
            var process = new ProcessBuilder(command).directory(dir.toFile()).start();
            process.getOutputStream().write(test.get("input").toString().getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as(stdout).isZero();
            JsonNode output = Output.JSON.readTree(stdout).get("output");
            assertValid(card.get("output_schema").toString(), output, "output of " + test.get("name"));
            test.get("expected").fields().forEachRemaining(e ->
                    assertThat(output.get(e.getKey())).as(test.get("name") + " " + e.getKey()).isEqualTo(e.getValue()));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"ab", "Word-Count", "word--count", "-word", "word-", "word_count",
            "../escape", "word count", "a/b", "'\u0000abc'", "ünïcode"})
    void whenTheNameBreaksTheCardsRuleThenExitOneAndNothingIsCreated(String name) throws Exception {
        var result = new CliRun(home).run("init", "-C", home.toString(), "--", name);

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("lower-case letters and digits");
        try (var entries = Files.list(home)) {
            assertThat(entries).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"file", "full-directory"})
    void whenTheDirectoryIsTakenThenNothingIsOverwritten(String taken) throws Exception {
        Path target = home.resolve("my-agent");
        if (taken.equals("file")) {
            Files.writeString(target, "keep me");
        } else {
            Files.createDirectories(target);
            Files.writeString(target.resolve("main.py"), "keep me");
        }

        var result = new CliRun(home).run("init", "my-agent", "-C", home.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("exists");
        assertThat(Files.readString(taken.equals("file") ? target : target.resolve("main.py"))).isEqualTo("keep me");
    }

    @org.junit.jupiter.api.Test
    void whenAnUnknownTemplateIsAskedThenExitOneNamingTheChoices() {
        var result = new CliRun(home).run("init", "my-agent", "--template", "cobol", "-C", home.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("python", "shell");
    }
}
