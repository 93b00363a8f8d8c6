package dev.atrium.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import dev.atrium.sandbox.BubblewrapExecutor;
import dev.atrium.sandbox.SandboxRefused;

@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Run the agent locally in the sandbox the server uses (bubblewrap, cgroup limits, no network), "
                + "with the limits a new agent gets: the card's memory up to 256 MB, its timeout up to 30 s.",
                "With --input, one run: the input is checked against input_schema, then the output, usage, "
                        + "duration and log are printed. Without, the card's test_cases run and each passes or fails."})
final class TestCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Option(names = {"-C", "--directory"}, defaultValue = ".", paramLabel = "DIR",
            description = "The agent's directory (default: the current one).")
    Path dir;

    @Option(names = "--image", paramLabel = "ARCHIVE",
            description = "Run this image archive (docker save, or an OCI archive) rather than the directory's bundle; "
                    + "agent.json stays the card.")
    Path image;

    @Option(names = {"-i", "--input"}, paramLabel = "JSON|@FILE|-",
            description = "One input: a JSON object, @file, or - for standard input.")
    String input;

    @Override
    public Integer call() throws IOException {
        JsonNode value = input == null ? null : InvokeCommand.read(root.env, input);
        Path work = LocalAgent.workDirectory("atrium-agent-test");
        try {
            var agent = LocalAgent.load(dir, work.resolve("agent"), image);
            if (agent.card().path("test_cases").isEmpty() && value == null) {
                throw CliException.user("agent.json has no test_cases: add some, or run one input with --input");
            }
            var executor = LocalAgent.sandbox(work.resolve("sandbox"));
            return value != null ? single(agent, executor, value) : testCases(agent, executor);
        } catch (SandboxRefused e) {
            throw new CliException(ExitCodes.SERVER_ERROR, "The sandbox refused the run: " + e.getMessage());
        } finally {
            deleteTree(work);
        }
    }

    private int single(LocalAgent agent, BubblewrapExecutor executor, JsonNode value) throws IOException {
        var env = root.env;
        var problems = agent.inputProblems(value);
        if (!problems.isEmpty()) {
            env.err().println(env.colour("@|red,bold Error:|@ ") + "the input does not match input_schema:");
            problems.forEach(p -> env.err().println("  " + Output.safe(p)));
            return ExitCodes.USER_ERROR;
        }
        var run = agent.run(executor, value);
        String problem = problem(agent, run);
        if (root.json) {
            var answer = Output.JSON.createObjectNode();
            answer.set("output", run.output());
            answer.set("usage", run.usage());
            answer.put("status", run.status().value()).put("exit_code", run.result().exitCode())
                    .put("duration_ms", run.result().wallTime().toMillis()).put("problem", problem)
                    .put("log", run.result().stderrText());
            Output.json(env, answer);
        } else {
            if (run.output() != null) {
                env.out().println(Output.JSON.writeValueAsString(run.output()));
            }
            env.err().println((problem == null ? env.colour("@|green succeeded|@")
                    : env.colour("@|red,bold " + run.status().value() + "|@") + ": " + Output.safe(problem)) + "  "
                    + run.result().wallTime().toMillis() + " ms  usage "
                    + (run.usage() == null ? "none" : Output.safe(run.usage().toString())));
            String log = run.result().stderrText();
            if (!log.isBlank()) {
                env.err().println(env.colour("@|faint log:|@"));
                log.lines().forEach(l -> env.err().println("  " + Output.safe(l)));
            }
        }
        return problem == null ? ExitCodes.OK : ExitCodes.RUN_FAILED;
    }

    private int testCases(LocalAgent agent, BubblewrapExecutor executor) {
        var tests = agent.card().path("test_cases");
        int failed = 0;
        var results = Output.JSON.createArrayNode();
        int number = 0;
        for (JsonNode test : tests) {
            number++;
            String name = test.path("name").asText("test " + number);
            String problem;
            var inputProblems = agent.inputProblems(test.path("input"));
            long millis = 0;
            if (!inputProblems.isEmpty()) {
                problem = "input does not match input_schema: " + String.join("; ", inputProblems);
            } else {
                var run = agent.run(executor, test.path("input"));
                millis = run.result().wallTime().toMillis();
                problem = problem(agent, run);
                if (problem == null) {
                    problem = missing(test.path("expected"), run.output());
                }
            }
            failed += problem == null ? 0 : 1;
            results.addObject().put("name", name).put("passed", problem == null).put("problem", problem)
                    .put("duration_ms", millis);
            if (!root.json) {
                root.env.out().println((problem == null ? root.env.colour("@|green PASS|@")
                        : root.env.colour("@|red,bold FAIL|@")) + "  " + Output.safe(name) + "  " + millis + " ms"
                        + (problem == null ? "" : "\n      " + Output.safe(problem)));
            }
        }
        if (root.json) {
            Output.json(root.env, results);
        } else {
            root.env.out().println((tests.size() - failed) + " passed, " + failed + " failed");
        }
        return failed == 0 ? ExitCodes.OK : ExitCodes.USER_ERROR;
    }

    /**
     * Why the run does not count as a success here: the gateway's error, with the agent's own stdout when it broke
     * the protocol (the author's to see, never a caller's), or an output that breaks {@code output_schema}.
     */
    private static String problem(LocalAgent agent, LocalAgent.Run run) {
        if (!run.succeeded()) {
            String stdout = run.result().stdoutText().strip();
            return run.error() + (run.status() == LocalAgent.Status.FAILED && run.result().exitCode() == 0
                    && !stdout.isEmpty() ? "; stdout: " + cut(stdout) : "");
        }
        var problems = agent.outputProblems(run.output());
        return problems.isEmpty() ? null : "output does not match output_schema: " + String.join("; ", problems);
    }

    private static String missing(JsonNode expected, JsonNode output) {
        var wrong = new ArrayList<String>();
        expected.fields().forEachRemaining(e -> {
            if (!e.getValue().equals(output.get(e.getKey()))) {
                wrong.add(e.getKey() + ": expected " + e.getValue() + ", got " + output.get(e.getKey()));
            }
        });
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    private static String cut(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is not worth failing the command for
        }
    }
}
