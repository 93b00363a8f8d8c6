package dev.atrium.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "search", mixinStandardHelpOptions = true,
        description = "Find active agents by what they do, in plain words; nearest first.")
final class SearchCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Parameters(arity = "1..*", paramLabel = "QUERY", description = "What the agent should do.")
    List<String> words;

    @Option(names = "--category", description = "Only agents of this category.")
    String category;

    @Option(names = "--limit", defaultValue = "10", description = "How many at most (1 to 100; default 10).")
    int limit;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 100) {
            throw CliException.user("--limit must be 1 to 100");
        }
        var result = root.client(false).search(String.join(" ", words), category, limit);
        if (root.json) {
            Output.json(root.env, result);
            return ExitCodes.OK;
        }
        if (result.agents().isEmpty()) {
            root.env.out().println("No agent found.");
            return ExitCodes.OK;
        }
        Output.table(root.env, List.of("NAME", "DISTANCE", "QUALITY", "DESCRIPTION"), result.agents().stream()
                .map(a -> List.of(a.name(), String.format(Locale.ROOT, "%.3f", a.distance()),
                        String.format(Locale.ROOT, "%.1f", a.qualityScore()), a.description())).toList());
        return ExitCodes.OK;
    }
}
