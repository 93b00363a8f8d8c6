package dev.atrium.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.atrium.sdk.AtriumClient;

@Command(name = "install", mixinStandardHelpOptions = true,
        description = {"Install a listed agent by id or name, for the logged-in user.",
                "Installing an agent already installed changes nothing."})
final class InstallCommand implements Callable<Integer> {

    private static final Pattern UUID_SHAPE = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** An agent's name is a slug (the card's rule); anything else is refused before a request is sent. */
    private static final Pattern NAME_SHAPE = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    @ParentCommand
    AgentCli root;

    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent's id or name.")
    String agent;

    @Override
    public Integer call() {
        var client = root.client(true);
        String id = agentId(client, agent);
        var installation = client.install(id);
        if (root.json) {
            Output.json(root.env, installation);
        } else {
            root.env.out().println(root.env.colour("@|green Installed|@ ") + Output.safe(agent)
                    + (agent.equals(id) ? "" : " (" + id + ")") + " at "
                    + Output.safe(installation.path("installed_at").asText()));
        }
        return ExitCodes.OK;
    }

    /** The id of the agent named by id or name: a name is looked up among the listed agents. */
    static String agentId(AtriumClient client, String agent) {
        if (UUID_SHAPE.matcher(agent).matches()) {
            return agent;
        }
        if (!NAME_SHAPE.matcher(agent).matches()) {
            throw CliException.user("AGENT must be an agent's id or name (lower-case letters, digits and hyphens), "
                    + "not " + Output.safe(agent));
        }
        var found = client.get("v1/agents?page_size=1&name=" + URLEncoder.encode(agent, StandardCharsets.UTF_8));
        var first = found.path("items").path(0).path("id");
        if (!first.isTextual()) {
            throw CliException.user("No listed agent is named " + agent);
        }
        return first.asText();
    }
}
