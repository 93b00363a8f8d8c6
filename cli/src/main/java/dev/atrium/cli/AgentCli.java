package dev.atrium.cli;

import java.util.concurrent.Callable;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import dev.atrium.sdk.AtriumClient;
import dev.atrium.sdk.AtriumException;

/**
 * The {@code agent} command: what an agent author and a caller of agents do from a terminal. Every command has
 * {@code --help}; {@code --json} makes its answer one JSON document on standard output; colours appear only on a
 * terminal. Exit codes: 0 done, 1 the user's error (arguments, not logged in, 4xx), 2 the server's or the
 * network's (5xx, unreachable, timeout), 3 the agent's run did not succeed.
 */
@Command(name = "agent", mixinStandardHelpOptions = true, versionProvider = AgentCli.Version.class,
        description = "Create, publish, search and invoke the agents of an Atrium marketplace.",
        subcommands = {LoginCommand.class, WhoamiCommand.class, InitCommand.class, TestCommand.class,
                DevCommand.class, PublishCommand.class, SearchCommand.class, InvokeCommand.class, InstallCommand.class,
                UninstallCommand.class, LogsCommand.class,
                RevenueCommand.class, AutoComplete.GenerateCompletion.class},
        footer = {"", "Exit codes: 0 done, 1 your error (arguments, login, refused by the server), 2 the server's or "
                + "the network's, 3 the agent's run did not succeed.",
                "Credentials: ATRIUM_BASE_URL and ATRIUM_API_KEY, else ~/.config/atrium/credentials (agent login)."})
public final class AgentCli implements Callable<Integer> {

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print the answer as JSON, for scripts.")
    boolean json;

    final Environment env;

    AgentCli(Environment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        new CommandLine(this).usage(env.out(), env.ansi());
        return ExitCodes.OK;
    }

    Credentials credentials() {
        return Credentials.load(env);
    }

    /** A client of the logged-in server, with the key when {@code keyRequired}, or anonymous when there is none. */
    AtriumClient client(boolean keyRequired) {
        var credentials = credentials();
        String key = keyRequired ? credentials.requireKey() : credentials.apiKey();
        try {
            return AtriumClient.builder(credentials.baseUrl(), key).build();
        } catch (IllegalArgumentException e) {
            throw CliException.user("Bad credentials (" + e.getMessage() + "): run `agent login` again");
        }
    }

    public static void main(String... args) {
        System.exit(run(Environment.system(), args));
    }

    /** Runs the command line in this process with this environment; answers the exit code. */
    public static int run(Environment env, String... args) {
        var cli = new CommandLine(new AgentCli(env), new Factory(env));
        // "@file" is the input option's own syntax; picocli would otherwise expand it into arguments first
        cli.setExpandAtFiles(false);
        cli.setUsageHelpWidth(100);
        cli.setOut(env.out());
        cli.setErr(env.err());
        cli.setColorScheme(CommandLine.Help.defaultColorScheme(env.ansi()));
        cli.setParameterExceptionHandler((e, arguments) -> {
            var err = e.getCommandLine().getErr();
            err.println(env.colour("@|red,bold Error:|@ ") + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println("See '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.USER_ERROR;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> report(env, e));
        int code = cli.execute(args);
        env.out().flush();
        env.err().flush();
        return code;
    }

    private static int report(Environment env, Exception e) {
        var err = env.err();
        String error = env.colour("@|red,bold Error:|@ ");
        if (e instanceof CliException cli) {
            err.println(error + cli.getMessage());
            return cli.exitCode();
        }
        if (e instanceof AtriumException.RunFailed run) {
            err.println(error + run.getMessage());
            return ExitCodes.RUN_FAILED;
        }
        if (e instanceof AtriumException atrium) {
            String where = atrium.status() == 0 ? "" : " (HTTP " + atrium.status()
                    + (atrium.code() == 0 ? "" : ", code " + atrium.code()) + ")";
            err.println(error + atrium.getMessage() + where + atrium.details().map(d -> ": " + d).orElse(""));
            if (atrium instanceof AtriumException.Unauthorized && atrium.status() == 401) {
                err.println("Run `agent login` with a valid API key.");
            }
            return atrium.status() == 0 || atrium.status() >= 500 ? ExitCodes.SERVER_ERROR : ExitCodes.USER_ERROR;
        }
        if (e instanceof IllegalArgumentException) {
            err.println(error + e.getMessage());
            return ExitCodes.USER_ERROR;
        }
        err.println(error + e);
        return ExitCodes.SERVER_ERROR;
    }

    /** Gives each command the environment; picocli makes the rest. */
    private record Factory(Environment env) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (type == AgentCli.class) {
                return type.cast(new AgentCli(env));
            }
            return CommandLine.defaultFactory().create(type);
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"agent 1.0.0 (Atrium)", "Java " + System.getProperty("java.version")};
        }
    }
}
