package dev.atrium.ai.control.models;

import java.util.Optional;

/** A catalog of one model, for tests that need a model and not the configuration that names it. */
public final class OneModelCatalog extends ModelCatalog {

    private final ModelDefinition model;

    public OneModelCatalog(ModelDefinition model) {
        this.model = model;
    }

    @Override
    public Optional<ModelDefinition> find(String id) {
        return model.id().equals(id) ? Optional.of(model) : Optional.empty();
    }

    @Override
    public ModelDefinition defaultModel() {
        return model;
    }
}
