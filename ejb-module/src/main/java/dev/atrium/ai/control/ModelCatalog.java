package dev.atrium.ai.control;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.atrium.ai.entity.Tier;

/**
 * The models clients may name, from configuration. {@code atrium.ai.models} lists ids, each described by
 * {@code atrium.ai.model.<id>.provider|upstream|input-price|output-price|tiers|tokens-per-second|latency-seconds}
 * (provider {@code openai}, the default, or {@code echo}). Without that list: with a language model configured
 * ({@code atrium.llm.base-url}) the spec's tenant table is followed (free 1 small model, pro 3: small, standard and
 * one third-party, enterprise 4); without one, the {@code echo} development model alone, open to every tier.
 * {@code echo} may be listed beside real models (development and test deployments): it keeps its own defaults
 * (provider {@code echo}, free, every tier), which the same keys may still override.
 */
@ApplicationScoped
public class ModelCatalog {

    private static final Logger LOG = Logger.getLogger(ModelCatalog.class.getName());
    public static final String ECHO = "echo";

    @Inject
    Config config;

    private Map<String, ModelDefinition> models = Map.of();
    private String defaultModel;

    @PostConstruct
    void load() {
        boolean llm = config.getOptionalValue("atrium.llm.base-url", String.class).filter(s -> !s.isBlank())
                .isPresent();
        var loaded = new LinkedHashMap<String, ModelDefinition>();
        var listed = config.getOptionalValues("atrium.ai.models", String.class);
        if (!llm && listed.isEmpty()) {
            loaded.put(ECHO, echo());
        } else {
            List<String> ids = listed.orElse(List.of("gpt-4o-mini", "gpt-4o", "llama-3.1-70b-instruct", "gpt-4.1"));
            Map<String, String> defaultTiers = Map.of("gpt-4o-mini", "free,pro,enterprise", "gpt-4o",
                    "pro,enterprise", "llama-3.1-70b-instruct", "pro,enterprise", "gpt-4.1", "enterprise");
            for (String raw : ids) {
                String id = raw.trim();
                if (!id.isEmpty()) {
                    boolean echoProvider = ECHO.equals(id) || ECHO.equals(value("atrium.ai.model." + id + ".provider",
                            "openai"));
                    loaded.put(id, definition(id, echoProvider ? echoNamed(id) : new ModelDefinition(id, "openai", id,
                            new BigDecimal("0.0005"), new BigDecimal("0.0015"),
                            tiers(defaultTiers.getOrDefault(id, "enterprise")), 50, 1.0)));
                }
            }
        }
        models = Map.copyOf(loaded);
        defaultModel = config.getOptionalValue("atrium.ai.default-model", String.class)
                .filter(models::containsKey)
                .orElseGet(() -> loaded.values().stream().filter(m -> m.allows(Tier.FREE)).findFirst()
                        .orElse(loaded.values().iterator().next()).id());
        LOG.info(() -> "Model catalog: " + loaded.values().stream()
                .map(m -> m.id() + " (" + m.provider() + ", " + m.tiers().stream().map(Tier::value).sorted()
                        .collect(Collectors.joining("/")) + ")").collect(Collectors.joining(", "))
                + "; default " + defaultModel);
    }

    /** The development model with its own defaults: no cost, every tier, as fast as its delay lets it be. */
    private ModelDefinition echo() {
        return echoNamed(ECHO);
    }

    private ModelDefinition echoNamed(String id) {
        return new ModelDefinition(id, ECHO, id, BigDecimal.ZERO, BigDecimal.ZERO, EnumSet.allOf(Tier.class),
                1000.0 / echoDelayMs(), 0.1);
    }

    /** A listed model: each {@code atrium.ai.model.<id>.*} key that is set replaces the default. */
    private ModelDefinition definition(String id, ModelDefinition defaults) {
        String prefix = "atrium.ai.model." + id + ".";
        return new ModelDefinition(id, value(prefix + "provider", defaults.provider()),
                value(prefix + "upstream", defaults.upstream()),
                new BigDecimal(value(prefix + "input-price", defaults.inputPricePer1k().toPlainString())),
                new BigDecimal(value(prefix + "output-price", defaults.outputPricePer1k().toPlainString())),
                config.getOptionalValue(prefix + "tiers", String.class).filter(s -> !s.isBlank())
                        .map(ModelCatalog::tiers).orElse(defaults.tiers()),
                Double.parseDouble(value(prefix + "tokens-per-second", Double.toString(defaults.tokensPerSecond()))),
                Double.parseDouble(value(prefix + "latency-seconds", Double.toString(defaults.latencySeconds()))));
    }

    private static Set<Tier> tiers(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Tier::of)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Tier.class)));
    }

    private String value(String key, String fallback) {
        return config.getOptionalValue(key, String.class).filter(s -> !s.isBlank()).orElse(fallback);
    }

    private long echoDelayMs() {
        return Math.max(1, config.getOptionalValue("atrium.ai.echo.delay-ms", Long.class).orElse(40L));
    }

    public Optional<ModelDefinition> find(String id) {
        return Optional.ofNullable(id == null ? null : models.get(id));
    }

    public ModelDefinition defaultModel() {
        return models.get(defaultModel);
    }

    public List<ModelDefinition> all() {
        return List.copyOf(models.values());
    }

    public List<ModelDefinition> allowedFor(Tier tier) {
        return models.values().stream().filter(m -> m.allows(tier)).toList();
    }
}
