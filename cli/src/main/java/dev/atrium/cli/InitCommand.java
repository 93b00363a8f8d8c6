package dev.atrium.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Create a working agent in a new directory NAME: agent.json (a valid card with input and "
                + "output schema and three test cases), the entrypoint, a README and an .agentignore.",
                "It follows the stdin/stdout contract: one JSON object in, {\"output\": …, \"usage\": …} out."})
final class InitCommand implements Callable<Integer> {

    /** The card's rule for names. */
    static final Pattern NAME = Pattern.compile("^[a-z0-9]+(-[a-z0-9]+)*$");

    enum Template { python, shell }

    @ParentCommand
    AgentCli root;

    @Parameters(index = "0", paramLabel = "NAME", description = "The agent's name: lower-case letters and digits, "
            + "single hyphens between them, 3 to 64 characters.")
    String name;

    @Option(names = {"-t", "--template"}, defaultValue = "python", paramLabel = "TEMPLATE",
            description = "python (default) or shell.")
    Template template;

    @Option(names = {"-C", "--directory"}, defaultValue = ".", paramLabel = "DIR",
            description = "Where to create it (default: the current directory).")
    Path parent;

    @Override
    public Integer call() throws IOException {
        if (name.length() < 3 || name.length() > 64 || !NAME.matcher(name).matches()) {
            throw CliException.user("The name must be 3 to 64 lower-case letters and digits with single hyphens "
                    + "between them, like word-count");
        }
        Path dir = parent.resolve(name).toAbsolutePath().normalize();
        if (Files.exists(dir) && (!Files.isDirectory(dir) || !isEmpty(dir))) {
            throw CliException.user(dir + " exists and is not an empty directory");
        }
        Files.createDirectories(dir);
        var files = new LinkedHashMap<String, String>();
        files.put("agent.json", Output.JSON.writeValueAsString(card()) + "\n");
        if (template == Template.python) {
            files.put("main.py", PYTHON);
        } else {
            files.put("main.sh", SHELL);
        }
        files.put("README.md", readme());
        files.put(".agentignore", "# left out of the bundle by agent publish, as .gitignore patterns\n.git/\n"
                + "__pycache__/\n*.pyc\n.venv/\n.env\n");
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        if (root.json) {
            var answer = Output.JSON.createObjectNode().put("directory", dir.toString());
            files.keySet().forEach(answer.putArray("files")::add);
            Output.json(root.env, answer);
        } else {
            root.env.out().println("Created " + dir + ": " + String.join(", ", files.keySet()));
            root.env.out().println("Next: cd " + name + " && agent test, then agent publish.");
        }
        return ExitCodes.OK;
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private ObjectNode card() {
        var card = Output.JSON.createObjectNode();
        card.put("name", name).put("display_name", title()).put("version", "0.1.0");
        var runtime = Output.JSON.createObjectNode();
        if (template == Template.python) {
            card.put("description", "Counts the words and characters of a text.").put("category", "text");
            card.putArray("tags").add("text").add("count");
            card.putArray("capabilities").add("count-words");
            var input = card.putObject("input_schema").put("type", "object");
            input.putArray("required").add("text");
            input.putObject("properties").putObject("text").put("type", "string").put("maxLength", 100000);
            var output = card.putObject("output_schema").put("type", "object");
            output.putArray("required").add("words").add("characters");
            var properties = output.putObject("properties");
            properties.putObject("words").put("type", "integer");
            properties.putObject("characters").put("type", "integer");
            runtime.putArray("entrypoint").add("python3").add("main.py");
            var tests = card.putArray("test_cases");
            test(tests, "two words", Map.of("text", "hello world"), Map.of("words", 2, "characters", 11));
            test(tests, "empty text", Map.of("text", ""), Map.of("words", 0, "characters", 0));
            test(tests, "spaces only", Map.of("text", "  one  "), Map.of("words", 1, "characters", 7));
        } else {
            card.put("description", "Says hello to whom the input names.").put("category", "utilities");
            card.putArray("tags").add("greeting");
            card.putArray("capabilities").add("greet");
            var input = card.putObject("input_schema").put("type", "object");
            input.putArray("required").add("name");
            input.putObject("properties").putObject("name").put("type", "string").put("pattern", "^[A-Za-z ]{1,50}$");
            var output = card.putObject("output_schema").put("type", "object");
            output.putArray("required").add("greeting");
            output.putObject("properties").putObject("greeting").put("type", "string");
            runtime.putArray("entrypoint").add("sh").add("main.sh");
            var tests = card.putArray("test_cases");
            test(tests, "a name", Map.of("name", "Ada"), Map.of("greeting", "Hello, Ada!"));
            test(tests, "two names", Map.of("name", "Ada Lovelace"), Map.of("greeting", "Hello, Ada Lovelace!"));
            test(tests, "one letter", Map.of("name", "X"), Map.of("greeting", "Hello, X!"));
        }
        runtime.put("memory_mb", 128).put("timeout_s", 10).put("requires_network", false);
        card.set("runtime", runtime);
        card.putObject("pricing").put("model", "per_call").put("price_usd", 0.001);
        return card;
    }

    private static void test(ArrayNode tests, String name, Map<String, ?> input,
                             Map<String, ?> expected) {
        var test = tests.addObject().put("name", name);
        test.set("input", Output.JSON.valueToTree(input));
        test.set("expected", Output.JSON.valueToTree(expected));
    }

    private String title() {
        var words = new StringBuilder();
        for (String part : name.split("-")) {
            words.append(words.isEmpty() ? "" : " ").append(Character.toUpperCase(part.charAt(0)))
                    .append(part.substring(1));
        }
        return words.toString();
    }

    private String readme() {
        String entry = template == Template.python ? "main.py" : "main.sh";
        return "# " + title() + "\n\n" + "An Atrium agent. The sandbox starts `" + entry + "` with the caller's input "
                + "as one JSON object on stdin;\nit writes one JSON object on stdout, `{\"output\": …, \"usage\": …}`, "
                + "and its log on stderr.\n\n"
                + "- `agent.json` is the card: the input and output schemas, the limits, the price and three test "
                + "cases.\n"
                + "- `agent test` runs the test cases locally in the same sandbox the server uses; "
                + "`agent test --input '{…}'` runs one input.\n"
                + "- `agent publish` validates the card, packs this directory (without what `.agentignore` names) "
                + "and submits it for review.\n";
    }

    static final String PYTHON = """
            import json
            import sys


            def run(data):
                text = data.get("text", "")
                return {"words": len(text.split()), "characters": len(text)}


            def main():
                data = json.load(sys.stdin)
                output = run(data)
                # the log: stderr is kept with the run record, never shown to the caller
                print(f"counted {output['words']} words", file=sys.stderr)
                json.dump({"output": output, "usage": {"tokens_input": 0, "tokens_output": 0}}, sys.stdout)
                sys.stdout.write("\\n")


            if __name__ == "__main__":
                main()
            """;

    static final String SHELL = """
            #!/bin/sh
            # One JSON object on stdin; the input schema allows only letters and spaces in "name", so the value can
            # be cut out of the line with sed and written back without escaping.
            read -r line
            name=$(printf '%s' "$line" | sed -n 's/.*"name"[[:space:]]*:[[:space:]]*"\\([A-Za-z ]*\\)".*/\\1/p')
            echo "greeting $name" >&2
            printf '{"output": {"greeting": "Hello, %s!"}}\\n' "$name"
            """;
}
