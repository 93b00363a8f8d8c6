package dev.atrium.marketplace.boundary.runtime;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.control.registry.AgentSecretService;

/** An agent's secrets, by name. */
@Schema(description = "An agent's secrets, by name, without their values")
public record SecretsView(List<SecretView> items) {

    static SecretsView from(AgentSecretService.Secrets secrets) {
        return new SecretsView(secrets.secrets().stream().map(s -> SecretView.from(s, secrets.declared())).toList());
    }
}
