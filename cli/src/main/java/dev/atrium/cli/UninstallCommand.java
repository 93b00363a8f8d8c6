package dev.atrium.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "uninstall", mixinStandardHelpOptions = true,
        description = "Uninstall an agent by id or name; exits with 1 when it is not installed.")
final class UninstallCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Parameters(index = "0", paramLabel = "AGENT", description = "The agent's id or name.")
    String agent;

    @Override
    public Integer call() {
        var client = root.client(true);
        String id = InstallCommand.agentId(client, agent);
        client.uninstall(id);
        if (root.json) {
            var answer = Output.JSON.createObjectNode().put("agent_id", id).put("uninstalled", true);
            Output.json(root.env, answer);
        } else {
            root.env.out().println("Uninstalled " + Output.safe(agent));
        }
        return ExitCodes.OK;
    }
}
