package dev.atrium.marketplace.boundary.runtime;

import java.time.Instant;
import java.util.Set;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.runtime.AgentSecret;

/** A secret as its author sees it: the name and times, never the value. */
@Schema(description = "A secret of an agent, without its value")
public record SecretView(
        String name,
        @Schema(description = "Whether the agent's current version declares the name in "
                + "permissions.allowed_env_vars, so that its runs receive the value") boolean declared,
        Instant createdAt,
        Instant updatedAt) {

    static SecretView from(AgentSecret s, boolean declared) {
        return new SecretView(s.name(), declared, s.createdAt(), s.updatedAt());
    }

    static SecretView from(AgentSecret s, Set<String> declared) {
        return from(s, declared.contains(s.name()));
    }
}
