package dev.atrium.ai.control.models;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.platform.health.HealthPart;

/**
 * {@code models} of {@code /health}: {@code echo only} when no language model is configured, else {@code configured}.
 */
@ApplicationScoped
public class ModelsHealth implements HealthPart {

    @Inject
    ModelCatalog models;

    @Override
    public String name() {
        return "models";
    }

    @Override
    public String describe() {
        return models.echoOnly() ? "echo only" : "configured";
    }
}
