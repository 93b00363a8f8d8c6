package dev.atrium.marketplace.entity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.platform.http.JsonInput;

/**
 * The card's pricing and what one call costs the caller (docs/decisions/marketplace.md, "The invoke gateway"):
 * {@code per_call} charges {@code price_usd}; {@code per_token} charges {@code price_usd} per 1,000 tokens (input plus
 * output as the agent reported them); {@code freemium} is free for the first {@code free_quota} successful calls of a
 * user in a calendar month (UTC), then {@code price_usd}; {@code subscription} charges {@code price_usd} as the month's
 * fee on a user's first successful call of the agent in a calendar month (UTC) and nothing for the month's other calls.
 * A card without pricing is free. The developer's share is 70 % of the price. Amounts have 6 decimals, rounded half to
 * even.
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
     * {@code earlierCallsThisMonth} successful calls of this agent before it this month: the spec's formula, which
     * admission decides in one step ({@link #decide}) instead of counting earlier calls.
     */
    public BigDecimal charge(long tokens, long earlierCallsThisMonth) {
        return decide(earlierCallsThisMonth < freeQuota, earlierCallsThisMonth == 0).price(tokens, true);
    }

    /** The most one call can cost, the caller having made {@code earlierCallsThisMonth} calls this month. */
    public BigDecimal maxCharge(long earlierCallsThisMonth) {
        return decide(earlierCallsThisMonth < freeQuota, earlierCallsThisMonth == 0).max();
    }

    /**
     * What admission decided for one call: {@code freeSlot} when it took one of the month's free calls
     * ({@code freemium}), {@code paysFee} when it pays the month's fee ({@code subscription}).
     */
    public Charge decide(boolean freeSlot, boolean paysFee) {
        return new Charge(this, model == Model.FREEMIUM && freeSlot, model == Model.SUBSCRIPTION && paysFee);
    }

    /** Whether admission must reserve one of the month's free calls ({@code freemium} with a quota). */
    public boolean hasFreeSlots() {
        return model == Model.FREEMIUM && freeQuota > 0;
    }

    /**
     * A call's price as admission decided it, before the run: {@link #max()} is held on the caller's balance, and
     * {@link #price} of the finished run is never above it. {@code per_call} costs its price; {@code freemium} nothing
     * in a free slot, else its price; {@code subscription} the month's fee when this call pays it, else nothing;
     * {@code per_token} its price per 1,000 tokens, at most {@link #MAX_BILLED_TOKENS} tokens' worth.
     */
    public record Charge(Pricing pricing, boolean freeSlot, boolean paysFee) {

        public static final Charge FREE = new Charge(Pricing.FREE, false, false);

        /** The most the call can cost: what is held before it runs. */
        public BigDecimal max() {
            return money(switch (pricing.model()) {
                case PER_CALL -> pricing.priceUsd();
                case FREEMIUM -> freeSlot ? BigDecimal.ZERO : pricing.priceUsd();
                case SUBSCRIPTION -> paysFee ? pricing.priceUsd() : BigDecimal.ZERO;
                case PER_TOKEN -> perToken(MAX_BILLED_TOKENS);
                case FREE -> BigDecimal.ZERO;
            });
        }

        /** The price of the finished call: nothing when it failed, never more than {@link #max()}. */
        public BigDecimal price(long tokens, boolean succeeded) {
            if (!succeeded) {
                return money(BigDecimal.ZERO);
            }
            BigDecimal price = pricing.model() == Model.PER_TOKEN
                    ? perToken(Math.min(MAX_BILLED_TOKENS, Math.max(0, tokens))) : max();
            return money(price.min(max()));
        }

        private BigDecimal perToken(long tokens) {
            return pricing.priceUsd().multiply(BigDecimal.valueOf(tokens)).divide(THOUSAND, SCALE,
                    RoundingMode.HALF_EVEN);
        }
    }

    public static BigDecimal developerShare(BigDecimal price) {
        return money(price.multiply(DEVELOPER_SHARE));
    }

    public static BigDecimal money(BigDecimal amount) {
        return amount.setScale(SCALE, RoundingMode.HALF_EVEN);
    }
}
