package dev.atrium.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import picocli.CommandLine.Help.Ansi;

/** Runs {@code agent} in this process with a home directory and variables of the test's own. */
final class CliRun {

    record Result(int exitCode, String out, String err) {
    }

    private final Path home;
    private final Map<String, String> variables = new HashMap<>();
    private String stdin = "";

    CliRun(Path home) {
        this.home = home;
    }

    CliRun with(String variable, String value) {
        variables.put(variable, value);
        return this;
    }

    CliRun stdin(String text) {
        stdin = text;
        return this;
    }

    Result run(String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var env = new Environment(Map.copyOf(variables), home, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), Ansi.OFF);
        int code = AgentCli.run(env, args);
        return new Result(code, out.toString(), err.toString());
    }
}
