package dev.atrium.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "logs", mixinStandardHelpOptions = true,
        description = "The latest runs of one of your agents, newest first, with the logs of your own calls (a "
                + "caller's log, input and output are the caller's alone).")
final class LogsCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Parameters(index = "0", paramLabel = "NAME", description = "Your agent's name.")
    String name;

    @Option(names = "--last", defaultValue = "10", paramLabel = "N", description = "How many runs (1 to 100; "
            + "default 10).")
    int last;

    @Override
    public Integer call() {
        if (last < 1 || last > 100) {
            throw CliException.user("--last must be 1 to 100");
        }
        var client = root.client(true);
        var mine = client.get("v1/me/agents?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8)
                + "&page_size=100");
        JsonNode agent = null;
        for (JsonNode item : mine.path("items")) {
            if (name.equals(item.path("name").asText())) {
                agent = item;
            }
        }
        if (agent == null) {
            throw CliException.user("You have no agent named " + Output.safe(name));
        }
        var runs = client.get("v1/agents/" + agent.get("id").asText() + "/runs?sort=-created_at&page_size=" + last)
                .path("items");
        if (root.json) {
            Output.json(root.env, runs);
            return ExitCodes.OK;
        }
        if (runs.isEmpty()) {
            root.env.out().println("No runs yet.");
            return ExitCodes.OK;
        }
        var rows = new ArrayList<List<String>>();
        runs.forEach(r -> rows.add(List.of(r.path("created_at").asText(), r.path("agent_version").asText(),
                r.path("status").asText(), r.path("duration_ms").asText(), r.path("exit_reason").asText(""))));
        Output.table(root.env, List.of("WHEN", "VERSION", "STATUS", "MS", "EXIT"), rows);
        for (JsonNode r : runs) {
            String log = r.path("log").asText("");
            if (!log.isBlank()) {
                root.env.out().println();
                root.env.out().println(root.env.colour("@|faint run " + r.path("id").asText() + "|@"));
                log.lines().forEach(l -> root.env.out().println("  " + Output.safe(l)));
            }
        }
        return ExitCodes.OK;
    }
}
