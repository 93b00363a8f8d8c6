package dev.atrium.sandbox;

import java.util.ArrayList;
import java.util.List;

/**
 * What an image's config says about running it: {@code Entrypoint}, {@code Cmd}, {@code Env} ({@code NAME=value}),
 * {@code WorkingDir} (empty: {@code /}). {@code User} is not honoured: every agent runs as uid 65534.
 */
public record ImageConfig(List<String> entrypoint, List<String> cmd, List<String> env, String workingDir) {

    public ImageConfig {
        entrypoint = List.copyOf(entrypoint);
        cmd = List.copyOf(cmd);
        env = List.copyOf(env);
        workingDir = workingDir == null || workingDir.isBlank() ? "/" : workingDir;
    }

    /** Entrypoint followed by Cmd, as a container runtime starts them; empty when the image names neither. */
    public List<String> command() {
        var command = new ArrayList<>(entrypoint);
        command.addAll(cmd);
        return List.copyOf(command);
    }
}
