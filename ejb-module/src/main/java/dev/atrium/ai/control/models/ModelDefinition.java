package dev.atrium.ai.control.models;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Set;

import dev.atrium.ai.entity.Tier;

/**
 * A model of the catalog: its id as clients name it, the provider that runs it and the name the provider knows it
 * by, the price per 1000 input and output tokens, which tiers may use it, and its expected speed (for the
 * smart-stream estimate).
 */
public record ModelDefinition(String id, String provider, String upstream, BigDecimal inputPricePer1k,
                              BigDecimal outputPricePer1k, Set<Tier> tiers, double tokensPerSecond,
                              double latencySeconds) {

    public ModelDefinition {
        tiers = Set.copyOf(tiers);
    }

    public boolean allows(Tier tier) {
        return tiers.contains(tier);
    }

    public BigDecimal inputCost(int tokens) {
        return cost(inputPricePer1k, tokens);
    }

    public BigDecimal outputCost(int tokens) {
        return cost(outputPricePer1k, tokens);
    }

    private static BigDecimal cost(BigDecimal per1k, int tokens) {
        return per1k.multiply(BigDecimal.valueOf(tokens)).divide(BigDecimal.valueOf(1000), 6, RoundingMode.HALF_UP);
    }
}
