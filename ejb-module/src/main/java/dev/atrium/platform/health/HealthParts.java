package dev.atrium.platform.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/** The contexts' {@link HealthPart}s, by name. */
@ApplicationScoped
public class HealthParts {

    @Inject
    @Any
    Instance<HealthPart> parts;

    /** The named part's phrase; a part no context offers is a deployment error. */
    public String describe(String name) {
        return parts.stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("No health part named " + name)).describe();
    }
}
