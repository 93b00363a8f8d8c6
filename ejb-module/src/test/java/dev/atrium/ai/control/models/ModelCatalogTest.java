package dev.atrium.ai.control.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.config.ConfigDefaults;

class ModelCatalogTest {

    /** The catalog over a configuration of these keys (only the two lookups it makes). */
    private static ModelCatalog catalog(Map<String, String> values) {
        var catalog = new ModelCatalog();
        catalog.config = (Config) Proxy.newProxyInstance(Config.class.getClassLoader(), new Class<?>[] {Config.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getOptionalValue" -> {
                        String raw = values.get((String) args[0]);
                        if (raw == null) {
                            yield Optional.empty();
                        }
                        Class<?> type = (Class<?>) args[1];
                        yield Optional.of(type == Long.class ? Long.valueOf(raw) : raw);
                    }
                    case "getOptionalValues" -> Optional.ofNullable(values.get((String) args[0]))
                            .map(v -> Arrays.asList(v.split(",")));
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        catalog.settings = ConfigDefaults.of(AiConfig.class);
        catalog.settings.llmBaseUrl = Optional.ofNullable(values.get("atrium.llm.base-url"));
        Optional.ofNullable(values.get("atrium.ai.echo.delay-ms"))
                .ifPresent(delay -> catalog.settings.echoDelayMs = Long.parseLong(delay));
        catalog.load();
        return catalog;
    }

    @Test
    void whenNoLanguageModelIsConfiguredThenOnlyEchoAnswers() {
        var catalog = catalog(Map.of());
        assertThat(catalog.echoOnly()).isTrue();
        assertThat(catalog.all()).extracting(ModelDefinition::id).containsExactly("echo");
    }

    @Test
    void whenAProviderIsConfiguredThenEachDefaultModelHasItsOwnListPrice() {
        var catalog = catalog(Map.of("atrium.llm.base-url", "https://api.openai.com/v1"));
        assertThat(catalog.echoOnly()).isFalse();
        record Price(String id, String input, String output) {
        }
        for (var p : List.of(new Price("gpt-4o-mini", "0.00015", "0.0006"), new Price("gpt-4o", "0.0025", "0.01"),
                new Price("llama-3.1-70b-instruct", "0.00088", "0.00088"), new Price("gpt-4.1", "0.002", "0.008"))) {
            var model = catalog.find(p.id()).orElseThrow();
            assertThat(model.inputPricePer1k()).as(p.id()).isEqualByComparingTo(new BigDecimal(p.input()));
            assertThat(model.outputPricePer1k()).as(p.id()).isEqualByComparingTo(new BigDecimal(p.output()));
        }
        assertThat(catalog.allowedFor(Tier.FREE)).extracting(ModelDefinition::id).containsExactly("gpt-4o-mini");
        assertThat(catalog.find("gpt-4o").orElseThrow().outputCost(2000)).isEqualByComparingTo("0.02");
    }

    @Test
    void whenAPriceIsConfiguredThenItReplacesTheDefault() {
        var catalog = catalog(Map.of("atrium.llm.base-url", "http://llm", "atrium.ai.models", "gpt-4o,house",
                "atrium.ai.model.gpt-4o.input-price", "0.003", "atrium.ai.model.house.output-price", "0.5"));
        assertThat(catalog.find("gpt-4o").orElseThrow().inputPricePer1k()).isEqualByComparingTo("0.003");
        assertThat(catalog.find("gpt-4o").orElseThrow().outputPricePer1k()).isEqualByComparingTo("0.01");
        assertThat(catalog.find("house").orElseThrow().inputPricePer1k()).isEqualByComparingTo("0");
        assertThat(catalog.find("house").orElseThrow().outputPricePer1k()).isEqualByComparingTo("0.5");
    }
}
