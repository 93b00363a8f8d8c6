package dev.atrium.ai.control.models;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
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

    /** The per-model keys, whose names the model list makes. */
    @Inject
    Config config;

    /** The fixed keys (the language model's address, the echo delay), with their defaults. */
    @Inject
    @ConfigProperties
    AiConfig settings;

    /**
     * The default models with a language model configured: tiers as spec 02's tenant table (free one small model,
     * pro three, enterprise four) and the providers' public list prices per 1000 input and output tokens, in USD
     * (OpenAI's for the GPT models; Together AI's for Llama 3.1 70B Instruct Turbo), each replaceable by
     * configuration. {tiers, input price, output price}.
     */
    static final Map<String, String[]> DEFAULTS = Map.of(
            "gpt-4o-mini", new String[] {"free,pro,enterprise", "0.00015", "0.0006"},
            "gpt-4o", new String[] {"pro,enterprise", "0.0025", "0.01"},
            "llama-3.1-70b-instruct", new String[] {"pro,enterprise", "0.00088", "0.00088"},
            "gpt-4.1", new String[] {"enterprise", "0.002", "0.008"});

    private Map<String, ModelDefinition> models = Map.of();
    private boolean echoOnly;
    private String defaultModel;

    @PostConstruct
    void load() {
        boolean llm = settings.llmBaseUrl.filter(s -> !s.isBlank()).isPresent();
        var loaded = new LinkedHashMap<String, ModelDefinition>();
        var listed = config.getOptionalValues("atrium.ai.models", String.class);
        if (!llm && listed.isEmpty()) {
            loaded.put(ECHO, echo());
        } else {
            List<String> ids = listed.orElse(List.of("gpt-4o-mini", "gpt-4o", "llama-3.1-70b-instruct", "gpt-4.1"));
            for (String raw : ids) {
                String id = raw.trim();
                if (!id.isEmpty()) {
                    boolean echoProvider = ECHO.equals(id) || ECHO.equals(value("atrium.ai.model." + id + ".provider",
                            "openai"));
                    loaded.put(id, definition(id, echoProvider ? echoNamed(id) : openAiDefaults(id)));
                }
            }
        }
        loaded.values().stream().filter(m -> !ECHO.equals(m.provider()) && m.inputPricePer1k().signum() == 0
                && m.outputPricePer1k().signum() == 0).forEach(m -> LOG.warning(() -> "Model " + m.id()
                + " has no price (atrium.ai.model." + m.id() + ".input-price and .output-price): its calls cost 0"));
        echoOnly = loaded.values().stream().allMatch(m -> ECHO.equals(m.provider()));
        models = Map.copyOf(loaded);
        defaultModel = config.getOptionalValue("atrium.ai.default-model", String.class)
                .filter(models::containsKey)
                .orElseGet(() -> loaded.values().stream().filter(m -> m.allows(Tier.FREE)).findFirst()
                        .orElse(loaded.values().iterator().next()).id());
        // the start log's one line on models: this, or the warning that only echo answers
        LOG.log(echoOnly ? Level.FINE : Level.INFO, () -> "Models: " + loaded.values().stream()
                .map(m -> m.id() + " (" + m.provider() + ", " + m.tiers().stream().map(Tier::value).sorted()
                        .collect(Collectors.joining("/")) + ")").collect(Collectors.joining(", "))
                + "; default " + defaultModel);
    }

    /** A model of an OpenAI-compatible provider: the default list's tiers and prices; others enterprise, no price. */
    private static ModelDefinition openAiDefaults(String id) {
        String[] known = DEFAULTS.getOrDefault(id, new String[] {"enterprise", "0", "0"});
        return new ModelDefinition(id, "openai", id, new BigDecimal(known[1]), new BigDecimal(known[2]),
                tiers(known[0]), 50, 1.0);
    }

    /**
     * Creates the catalog when the application starts, so a deployment without a language model says so in the start
     * log at once (and only once), not at the first chat.
     */
    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        if (echoOnly) {
            LOG.warning("Models: No language model is configured (ATRIUM_LLM_BASE_URL is not set): only the echo development "
                    + "model answers, repeating the last message; /health shows \"models\": \"echo only\"");
        }
    }

    /** Whether only the echo development model answers (no language model configured). */
    public boolean echoOnly() {
        return echoOnly;
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
        return Math.max(1, settings.echoDelayMs);
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
