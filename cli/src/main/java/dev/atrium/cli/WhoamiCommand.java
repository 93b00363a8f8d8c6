package dev.atrium.cli;

import java.util.ArrayList;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "whoami", mixinStandardHelpOptions = true, description = "Show who the stored API key belongs to.")
final class WhoamiCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Override
    public Integer call() {
        var me = root.client(true).get("me/permissions");
        if (root.json) {
            Output.json(root.env, me);
            return ExitCodes.OK;
        }
        var roles = new ArrayList<String>();
        me.path("roles").forEach(r -> roles.add(r.asText()));
        root.env.out().println(Output.safe(me.path("user").path("username").asText()) + " (user "
                + me.path("user").path("id").asText() + ") on " + Output.safe(root.credentials().baseUrl())
                + (roles.isEmpty() ? "" : ", roles: " + Output.safe(String.join(", ", roles))));
        return ExitCodes.OK;
    }
}
