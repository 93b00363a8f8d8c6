package dev.atrium.marketplace.entity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.platform.http.JsonInput;

/**
 * The card's pricing and what one call costs the caller (README, "Usage records"): {@code per_call} charges
 * {@code price_usd}; {@code per_token} charges {@code price_usd} per 1,000 tokens (input plus output as the agent
 * reported them); {@code freemium} is free for the first {@code free_quota} successful calls of a user in a calendar
 * month (UTC), then {@code price_usd}; {@code subscription} charges {@code price_usd} as the month's fee on a user's
 * first successful call of the agent in a calendar month (UTC) and nothing for the month's other calls.
 * A card without pricing is free. The developer's share is 70 % of the price. Amounts have 6 decimals, rounded half
 * to even.
 */
public record Pricing(Model model, BigDecimal priceUsd, long freeQuota) {

    public enum Model {
        PER_CALL, PER_TOKEN, SUBSCRIPTION, FREEMIUM, FREE;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final int SCALE = 6;
    public static final BigDecimal DEVELOPER_SHARE = new BigDecimal("0.70");
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    /** {@code per_token} calls are charged for at most this many tokens: the hold placed before the run. */
    public static final long MAX_BILLED_TOKENS = 100_000;

    public static final Pricing FREE = new Pricing(Model.FREE, BigDecimal.ZERO, 0);

    public Pricing {
        priceUsd = priceUsd == null || priceUsd.signum() < 0 ? BigDecimal.ZERO : priceUsd;
        freeQuota = Math.max(0, freeQuota);
    }

    /** Reads the record's pricing JSON (the card's {@code pricing} object); null or unreadable is free. */
    public static Pricing of(String pricingJson) {
        if (pricingJson == null || pricingJson.isBlank()
                || !(JsonInput.read(pricingJson) instanceof JsonObject pricing)) {
            return FREE;
        }
        Model model = pricing.get("model") instanceof JsonString s ? model(s.getString()) : Model.FREE;
        BigDecimal price = pricing.get("price_usd") instanceof JsonNumber n ? n.bigDecimalValue() : BigDecimal.ZERO;
        long quota = pricing.get("free_quota") instanceof JsonNumber n && n.isIntegral() ? n.longValue() : 0;
        return new Pricing(model, price, quota);
    }

    private static Model model(String value) {
        return switch (value) {
            case "per_call" -> Model.PER_CALL;
            case "per_token" -> Model.PER_TOKEN;
            case "subscription" -> Model.SUBSCRIPTION;
            case "freemium" -> Model.FREEMIUM;
            default -> Model.FREE;
        };
    }

    /**
     * The price of one successful call that used {@code tokens} (input plus output), the caller having made
     * {@code earlierCallsThisMonth} successful calls of this agent before it this month.
     */
    public BigDecimal charge(long tokens, long earlierCallsThisMonth) {
        BigDecimal price = switch (model) {
            case PER_CALL -> priceUsd;
            case PER_TOKEN -> priceUsd.multiply(BigDecimal.valueOf(Math.min(MAX_BILLED_TOKENS, Math.max(0, tokens))))
                    .divide(THOUSAND, SCALE, RoundingMode.HALF_EVEN);
            case FREEMIUM -> earlierCallsThisMonth < freeQuota ? BigDecimal.ZERO : priceUsd;
            case SUBSCRIPTION -> earlierCallsThisMonth == 0 ? priceUsd : BigDecimal.ZERO;
            case FREE -> BigDecimal.ZERO;
        };
        return money(price);
    }

    /**
     * The most one call can cost, held on the caller's balance before the run, the caller having made
     * {@code earlierCallsThisMonth} successful calls of the agent this month: the price per call ({@code per_call};
     * {@code freemium} past its free quota; {@code subscription} while the month's fee is unpaid),
     * {@link #MAX_BILLED_TOKENS} tokens' worth for {@code per_token}, nothing otherwise.
     */
    public BigDecimal maxCharge(long earlierCallsThisMonth) {
        return money(switch (model) {
            case PER_CALL -> priceUsd;
            case FREEMIUM -> earlierCallsThisMonth < freeQuota ? BigDecimal.ZERO : priceUsd;
            case SUBSCRIPTION -> earlierCallsThisMonth == 0 ? priceUsd : BigDecimal.ZERO;
            case PER_TOKEN -> priceUsd.multiply(BigDecimal.valueOf(MAX_BILLED_TOKENS))
                    .divide(THOUSAND, SCALE, RoundingMode.HALF_EVEN);
            case FREE -> BigDecimal.ZERO;
        });
    }

    /** Whether the price depends on the caller's earlier calls this month (freemium's and subscription's). */
    public boolean countsEarlierCalls() {
        return model == Model.FREEMIUM && freeQuota > 0 || model == Model.SUBSCRIPTION;
    }

    public static BigDecimal developerShare(BigDecimal price) {
        return money(price.multiply(DEVELOPER_SHARE));
    }

    public static BigDecimal money(BigDecimal amount) {
        return amount.setScale(SCALE, RoundingMode.HALF_EVEN);
    }
}
