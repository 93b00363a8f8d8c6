package dev.atrium.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

import picocli.CommandLine.Help.Ansi;

/**
 * What a command may touch of the world: environment variables, the home directory, the streams, and whether to
 * colour. The real one is the process's; tests give their own, so that commands run in-process.
 */
public record Environment(Map<String, String> variables, Path home, PrintWriter out, PrintWriter err,
                          InputStream in, Ansi ansi) {

    public static Environment system() {
        var out = new PrintWriter(System.out, true);
        var err = new PrintWriter(System.err, true);
        // colours only on a terminal, and never when NO_COLOR is set (no-color.org)
        Ansi ansi = System.getenv("NO_COLOR") != null ? Ansi.OFF : Ansi.AUTO;
        return new Environment(System.getenv(), Path.of(System.getProperty("user.home")), out, err, System.in, ansi);
    }

    String variable(String name) {
        String value = variables.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    /** {@code $XDG_CONFIG_HOME/atrium}, else {@code ~/.config/atrium}. */
    Path configDirectory() {
        String xdg = variable("XDG_CONFIG_HOME");
        return (xdg != null ? Path.of(xdg) : home.resolve(".config")).resolve("atrium");
    }

    String colour(String markup) {
        return ansi.string(markup);
    }
}
