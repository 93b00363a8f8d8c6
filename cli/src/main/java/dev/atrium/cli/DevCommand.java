package dev.atrium.cli;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "dev", mixinStandardHelpOptions = true,
        description = {"Serve the agent in a directory on a local port at the marketplace's invoke path, "
                + "POST /v1/agents/{name}/invoke, through the sandbox and the input checks of the server.",
                "The directory is watched: a change is served from the next call on. Nothing is authenticated or "
                        + "charged. Ctrl-C stops it."})
final class DevCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Option(names = {"-C", "--directory"}, defaultValue = ".", paramLabel = "DIR",
            description = "The agent's directory (default: the current one).")
    Path dir;

    @Option(names = "--image", paramLabel = "ARCHIVE",
            description = "Serve this image archive (docker save, or an OCI archive) rather than the directory's "
                    + "bundle; agent.json stays the card, and a new archive is picked up as the directory is.")
    Path image;

    @Option(names = {"-p", "--port"}, defaultValue = "8787", paramLabel = "PORT",
            description = "The port to listen on (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "The address to listen on (default: ${DEFAULT-VALUE}). Anything but loopback lets others "
                    + "on the network run your agent, unauthenticated.")
    String host;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw CliException.user("--port must be 0..65535, not " + port);
        }
        var env = root.env;
        try (var server = DevServer.start(dir, image, new InetSocketAddress(host, port), env.err())) {
            var agent = server.agent();
            String url = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port()
                    + "/v1/agents/" + agent.name() + "/invoke";
            if (root.json) {
                Output.json(env, Output.JSON.createObjectNode().put("agent", agent.name())
                        .put("version", agent.version()).put("url", url).put("port", server.port()));
            } else {
                env.out().println(env.colour("@|bold Serving|@ ") + Output.safe(agent.name()) + " "
                        + Output.safe(agent.version()) + " at " + url);
                env.out().println("  memory " + agent.limits().memoryBytes() / (1024 * 1024) + " MB, timeout "
                        + agent.limits().timeout().toSeconds() + " s; Ctrl-C stops");
                env.out().println("  try: curl -s -X POST -H 'Content-Type: application/json' -d '"
                        + example(agent) + "' " + url);
            }
            env.out().flush();
            var stopped = new CountDownLatch(1);
            var hook = new Thread(() -> {
                server.close();
                stopped.countDown();
            }, "agent-dev-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                stopped.await();
            } catch (InterruptedException e) {
                // the in-process caller (a test) asked it to stop
                Thread.currentThread().interrupt();
                removeHook(hook);
            }
        }
        return ExitCodes.OK;
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already stopping: the hook runs anyway
        }
    }

    /** The first test case's input, for the curl line; {@code {}} when there is none. */
    private static String example(LocalAgent agent) {
        var input = agent.card().path("test_cases").path(0).path("input");
        return Output.safe(input.isObject() ? input.toString() : "{}").replace("'", "'\\''");
    }
}
