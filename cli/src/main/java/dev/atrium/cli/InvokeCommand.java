package dev.atrium.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "invoke", mixinStandardHelpOptions = true,
        description = {"Invoke an agent by name or id; print its output on standard output and the run on standard "
                + "error.", "Exits with 3 when the run did not succeed."})
final class InvokeCommand implements Callable<Integer> {

    /** Input larger than the server takes is refused here rather than uploaded. */
    static final long MAX_INPUT_BYTES = 1024 * 1024;

    @ParentCommand
    AgentCli root;

    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent's name or id.")
    String agent;

    @Option(names = {"-i", "--input"}, required = true, paramLabel = "JSON|@FILE|-",
            description = "The input: a JSON object, @file to read one, or - for standard input.")
    String input;

    @Override
    public Integer call() throws IOException {
        JsonNode body = read(root.env, input);
        var run = root.client(true).invoke(agent, body);
        if (root.json) {
            var answer = Output.JSON.createObjectNode();
            answer.set("output", run.output());
            answer.set("run", Output.tree(run).deepCopy());
            ((ObjectNode) answer.get("run")).remove("output");
            Output.json(root.env, answer);
        } else {
            root.env.out().println(Output.JSON.writeValueAsString(run.output()));
            String status = run.succeeded() ? "@|green " + run.status() + "|@" : "@|red,bold " + run.status() + "|@";
            root.env.err().println(root.env.colour(status) + "  run " + run.runId() + "  version "
                    + Output.safe(run.agentVersion()) + "  " + run.durationMs() + " ms  tokens " + run.tokensInput()
                    + "/" + run.tokensOutput() + "  " + Output.money(run.priceUsd()) + " USD");
        }
        return run.succeeded() ? ExitCodes.OK : ExitCodes.RUN_FAILED;
    }

    /** The input as a JSON object, from the argument, a file or standard input; a clear error otherwise. */
    static JsonNode read(Environment env, String input) throws IOException {
        byte[] bytes;
        String from;
        if ("-".equals(input)) {
            bytes = env.in().readNBytes((int) MAX_INPUT_BYTES + 1);
            from = "standard input";
        } else if (input.startsWith("@")) {
            Path file = Path.of(input.substring(1));
            from = file.toString();
            try {
                if (Files.size(file) > MAX_INPUT_BYTES) {
                    throw CliException.user(from + " is larger than 1 MiB");
                }
                bytes = Files.readAllBytes(file);
            } catch (NoSuchFileException e) {
                throw CliException.user("No such file: " + from);
            }
        } else {
            bytes = input.getBytes(StandardCharsets.UTF_8);
            from = "--input";
        }
        if (bytes.length > MAX_INPUT_BYTES) {
            throw CliException.user("The input from " + from + " is larger than 1 MiB");
        }
        if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
            throw CliException.user("The input from " + from + " is empty");
        }
        JsonNode node;
        try {
            node = Output.JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw CliException.user("The input from " + from + " is not JSON: " + Output.safe(e.getOriginalMessage()));
        }
        if (node == null || !node.isObject()) {
            throw CliException.user("The input from " + from + " must be a JSON object");
        }
        return node;
    }
}
