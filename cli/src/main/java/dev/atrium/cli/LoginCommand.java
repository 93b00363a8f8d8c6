package dev.atrium.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import dev.atrium.sdk.AtriumClient;

@Command(name = "login", mixinStandardHelpOptions = true,
        description = {"Store the server's URL and your API key in ~/.config/atrium/credentials (mode 0600).",
                "The key is checked with the server first. Get one with POST /api-keys."})
final class LoginCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Option(names = "--base-url", paramLabel = "URL", description = "The server (default: ATRIUM_BASE_URL, the "
            + "stored one, or " + Credentials.DEFAULT_BASE_URL + ").")
    String baseUrl;

    @Option(names = "--with-key-stdin", description = "Read the API key from standard input (for scripts); "
            + "otherwise it is asked for without echo.")
    boolean fromStdin;

    @Override
    public Integer call() throws IOException {
        var env = root.env;
        String url = baseUrl != null ? baseUrl : root.credentials().baseUrl();
        String key = fromStdin ? new BufferedReader(new InputStreamReader(env.in(), StandardCharsets.UTF_8))
                .readLine() : prompt();
        if (key == null || key.isBlank()) {
            throw CliException.user("No API key given");
        }
        key = key.strip();
        AtriumClient client;
        try {
            client = AtriumClient.builder(url, key).build();
        } catch (IllegalArgumentException e) {
            throw CliException.user(e.getMessage());
        }
        var me = client.get("me/permissions");
        var file = new Credentials(url, key).save(env);
        String user = me.path("user").path("username").asText();
        if (root.json) {
            Output.json(env, Output.JSON.createObjectNode().put("base_url", url).put("username", user)
                    .put("credentials", file.toString()));
        } else {
            env.out().println("Logged in to " + Output.safe(url) + " as " + env.colour("@|bold "
                    + Output.safe(user) + "|@") + "; credentials in " + file + " (0600).");
        }
        return ExitCodes.OK;
    }

    private static String prompt() {
        var console = System.console();
        if (console == null) {
            throw CliException.user("No terminal to ask for the key: use --with-key-stdin");
        }
        char[] key = console.readPassword("API key: ");
        return key == null ? null : new String(key);
    }
}
