package dev.atrium.billing.entity;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The one rounding rule of money: amounts carry 6 decimals ({@code NUMERIC(19,6)}), rounded half to even, in US
 * dollars. Top-ups and credits are whole cents.
 */
public final class Money {

    public static final int SCALE = 6;
    public static final String CURRENCY = "USD";

    private Money() {
    }

    public static BigDecimal of(BigDecimal amount) {
        return amount.setScale(SCALE, RoundingMode.HALF_EVEN);
    }

    public static BigDecimal of(String amount) {
        return of(new BigDecimal(amount));
    }

    public static final BigDecimal ZERO = of(BigDecimal.ZERO);
}
