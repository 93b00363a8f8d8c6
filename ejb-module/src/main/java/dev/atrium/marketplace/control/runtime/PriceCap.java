package dev.atrium.marketplace.control.runtime;

import java.math.BigDecimal;
import java.util.regex.Pattern;

import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.error.BusinessException;

/**
 * The {@code Atrium-Max-Price-Usd} request header: the most a caller agrees to pay for one invocation, its dependency
 * calls included. A plain decimal of at most 6 places, 0 to {@value #MAX} USD; anything else is refused with 422
 * naming the header, never read leniently (no exponent, sign, spaces or thousands separators).
 */
public final class PriceCap {

    public static final String HEADER = "Atrium-Max-Price-Usd";
    static final String MAX = "1000000";
    private static final Pattern SHAPE = Pattern.compile("[0-9]{1,7}(\\.[0-9]{1,6})?");

    private PriceCap() {
    }

    /** The cap the header states; null when the header is absent (the agent's own maximum price applies). */
    public static BigDecimal read(String header) {
        if (header == null) {
            return null;
        }
        if (!SHAPE.matcher(header).matches()) {
            throw refused();
        }
        BigDecimal cap = new BigDecimal(header);
        if (cap.compareTo(new BigDecimal(MAX)) > 0) {
            throw refused();
        }
        return Pricing.money(cap);
    }

    private static BusinessException refused() {
        return BusinessException.validation(HEADER + " must be a decimal number of USD from 0 to " + MAX
                + " with at most 6 decimal places, such as 2.50");
    }
}
