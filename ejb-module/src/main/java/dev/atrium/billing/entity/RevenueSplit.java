package dev.atrium.billing.entity;

import java.math.BigDecimal;

/**
 * How one charge is shared (spec 03, Limits): developer 70 %, platform 20 %, underlying model cost 10 %. The
 * developer's and the model's parts are rounded to 6 decimals (half to even) in that order and the platform takes the
 * remainder, so the three always add up to the charge exactly.
 */
public record RevenueSplit(BigDecimal developer, BigDecimal platform, BigDecimal model) {

    public static final BigDecimal DEVELOPER = new BigDecimal("0.70");
    public static final BigDecimal PLATFORM = new BigDecimal("0.20");
    public static final BigDecimal MODEL = new BigDecimal("0.10");

    public static RevenueSplit of(BigDecimal charge) {
        if (charge.signum() < 0) {
            throw new IllegalArgumentException("A charge is not negative: " + charge);
        }
        BigDecimal price = Money.of(charge);
        BigDecimal developer = Money.of(price.multiply(DEVELOPER));
        BigDecimal model = Money.of(price.multiply(MODEL));
        return new RevenueSplit(developer, price.subtract(developer).subtract(model), model);
    }

    public BigDecimal total() {
        return developer.add(platform).add(model);
    }
}
