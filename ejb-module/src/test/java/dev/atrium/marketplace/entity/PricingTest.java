package dev.atrium.marketplace.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.marketplace.entity.runtime.AgentUsage;

class PricingTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261123L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);

    @ParameterizedTest(name = "{0} at {1} with {2} tokens after {3} calls = {4}")
    @CsvSource({
            "per_call,     0.01,   0,      0,  0.010000",
            "per_call,     0.01,   999999, 50, 0.010000",
            "per_call,     0,      10,     0,  0.000000",
            "per_token,    0.002,  1000,   0,  0.002000",
            "per_token,    0.002,  1500,   0,  0.003000",
            "per_token,    0.002,  1,      0,  0.000002",
            "per_token,    0.003,  1,      0,  0.000003",
            "per_token,    0.0005, 1,      0,  0.000000",
            "per_token,    0.0015, 1,      0,  0.000002",
            "per_token,    0.0025, 1,      0,  0.000002",
            "per_token,    1,      0,      0,  0.000000",
            "freemium,     0.05,   10,     0,  0.000000",
            "freemium,     0.05,   10,     9,  0.000000",
            "freemium,     0.05,   10,     10, 0.050000",
            "freemium,     0.05,   10,     11, 0.050000",
            "subscription, 9.99,   5000,   0,  9.990000",
            "subscription, 9.99,   5000,   1,  0.000000",
            "subscription, 9.99,   5000,   3,  0.000000",
            "unknown,      1.00,   5000,   3,  0.000000"})
    void whenACallIsPricedThenTheCardsModelDecides(String model, String price, long tokens, long earlier,
                                                 String expected) {
        var pricing = Pricing.of("{\"model\":\"" + model + "\",\"price_usd\":" + price + ",\"free_quota\":10}");

        assertThat(pricing.charge(tokens, earlier)).isEqualByComparingTo(expected);
        assertThat(pricing.charge(tokens, earlier).scale()).isEqualTo(6);
        assertThat(pricing.charge(tokens, earlier)).as("the hold covers it")
                .isLessThanOrEqualTo(pricing.maxCharge(earlier));
    }

    @ParameterizedTest(name = "share of {0} = {1}")
    @CsvSource({"0.010000, 0.007000", "0.000001, 0.000001", "0.000005, 0.000004", "0.000015, 0.000010",
            "9999.999999, 6999.999999", "0, 0.000000"})
    void whenAPriceIsSplitThenTheDeveloperGetsSeventyPercentHalfEven(String price, String share) {
        assertThat(Pricing.developerShare(new BigDecimal(price))).isEqualByComparingTo(share);
    }

    @Test
    void whenPricingIsMissingOrNotAnObjectThenCallsAreFree() {
        assertThat(Pricing.of(null).charge(100, 0)).isZero();
        assertThat(Pricing.of("").charge(100, 0)).isZero();
        assertThat(Pricing.of("[1]").charge(100, 0)).isZero();
        assertThat(Pricing.of("{\"model\":\"per_call\"}").charge(100, 0)).isZero();
    }

    @Test
    void whenARunFailedThenItsUsageIsRecordedAtPriceZero() {
        var charge = Pricing.of("{\"model\":\"per_call\",\"price_usd\":2}").decide(false, false);
        var facts = new AgentUsage.Facts(UUID.randomUUID(), 7, UUID.randomUUID(), "1.0.0", 10, 20, 1.5,
                new BigDecimal("0.001"), new BigDecimal("0.00003"), false, null, charge, null, null);

        var usage = AgentUsage.of(UUID.randomUUID(), facts, Instant.EPOCH);

        assertThat(usage.priceCharged()).isZero();
        assertThat(usage.developerShare()).isZero();
        assertThat(usage.tokensInput()).isEqualTo(10);
        assertThat(usage.costLlm()).isEqualByComparingTo("0.001000");
    }

    @ParameterizedTest(name = "{0}: free slot {1}, pays fee {2}, {3} tokens -> held {4}, charged {5}")
    @CsvSource({
            "per_call,     false, false, 0,       2.500000, 2.500000",
            "freemium,     true,  false, 0,       0.000000, 0.000000",
            "freemium,     false, false, 0,       2.500000, 2.500000",
            "subscription, false, true,  0,       2.500000, 2.500000",
            "subscription, false, false, 0,       0.000000, 0.000000",
            "per_token,    false, false, 1000,    250.000000, 2.500000",
            "per_token,    false, false, 9999999, 250.000000, 250.000000"})
    void whenAdmissionDecidedThenTheRunIsChargedThatDecisionAndNeverAboveItsHold(String model, boolean freeSlot,
                                                                               boolean paysFee, long tokens,
                                                                               String held, String charged) {
        var pricing = Pricing.of("{\"model\":\"" + model + "\",\"price_usd\":2.5,\"free_quota\":1}");

        var charge = pricing.decide(freeSlot, paysFee);

        assertThat(charge.max()).isEqualByComparingTo(held);
        assertThat(charge.price(tokens, true)).isEqualByComparingTo(charged);
        assertThat(charge.price(tokens, false)).isZero();
    }

    /** Random prices and token counts: the price follows the formula, is never negative, the share never above it. */
    @Test
    void whenRandomPricesAndTokensArePricedThenTheFormulaHolds() {
        var random = new Random(SEED);
        String[] models = {"per_call", "per_token", "freemium", "subscription"};
        for (int i = 0; i < ROUNDS; i++) {
            String model = models[random.nextInt(models.length)];
            BigDecimal price = BigDecimal.valueOf(random.nextInt(10_000_000_00), 6 + random.nextInt(3))
                    .min(new BigDecimal("10000"));
            long tokens = random.nextInt(4) == 0 ? 0 : (long) (random.nextDouble() * 2_000_000);
            long quota = random.nextInt(20);
            long earlier = random.nextInt(40);
            var pricing = Pricing.of("{\"model\":\"" + model + "\",\"price_usd\":" + price.toPlainString()
                    + ",\"free_quota\":" + quota + "}");
            String round = "round " + i + " (seed " + SEED + "): " + model + " " + price + " " + tokens + " " + earlier;

            BigDecimal charged = pricing.charge(tokens, earlier);

            BigDecimal expected = switch (model) {
                case "per_call" -> price;
                case "per_token" -> price.multiply(BigDecimal.valueOf(Math.min(tokens, Pricing.MAX_BILLED_TOKENS)))
                        .divide(BigDecimal.valueOf(1000), 6, RoundingMode.HALF_EVEN);
                case "freemium" -> earlier < quota ? BigDecimal.ZERO : price;
                case "subscription" -> earlier == 0 ? price : BigDecimal.ZERO;
                default -> BigDecimal.ZERO;
            };
            assertThat(charged).as(round).isEqualByComparingTo(expected.setScale(6, RoundingMode.HALF_EVEN));
            assertThat(charged.signum()).as(round).isGreaterThanOrEqualTo(0);
            assertThat(charged).as("never above the hold: " + round).isLessThanOrEqualTo(pricing.maxCharge(earlier));
            BigDecimal share = Pricing.developerShare(charged);
            assertThat(share).as(round).isLessThanOrEqualTo(charged);
            assertThat(share.subtract(charged.multiply(new BigDecimal("0.7"))).abs())
                    .as(round).isLessThanOrEqualTo(new BigDecimal("0.0000005"));
        }
    }
}
