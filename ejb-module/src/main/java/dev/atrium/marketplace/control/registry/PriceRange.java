package dev.atrium.marketplace.control.registry;

import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.query.ListQuery;

/**
 * The agent list's range filters on the listed price (spec 01's {@code price_min}, {@code price_max}): a plain decimal
 * of USD with at most 6 places, 0 to {@value #MAX}, one value each, and a minimum not above the maximum; anything else
 * is 422 naming the parameter, never read leniently (no sign, exponent, spaces inside or thousands separators).
 * Both bounds are inclusive.
 */
public final class PriceRange {

    public static final String MIN = "price_min";
    public static final String MAX_PARAMETER = "price_max";
    static final String MAX = "1000000";
    private static final Pattern SHAPE = Pattern.compile("[0-9]{1,7}(\\.[0-9]{1,6})?");

    private PriceRange() {
    }

    /** The bound a filter's values state. */
    public static BigDecimal bound(String name, List<String> values) {
        if (values.size() != 1) {
            throw BusinessException.validation(name + ": one amount, not a list");
        }
        String value = values.get(0);
        if (!SHAPE.matcher(value).matches() || new BigDecimal(value).compareTo(new BigDecimal(MAX)) > 0) {
            throw BusinessException.validation(name + ": must be a decimal number of USD from 0 to " + MAX
                    + " with at most 6 decimal places, such as 2.50");
        }
        return Pricing.money(new BigDecimal(value));
    }

    /** Checks both bounds of a list request, and that the minimum is not above the maximum. */
    public static void check(ListQuery query) {
        var min = query.filter(MIN).map(v -> bound(MIN, v));
        var max = query.filter(MAX_PARAMETER).map(v -> bound(MAX_PARAMETER, v));
        if (min.isPresent() && max.isPresent() && min.get().compareTo(max.get()) > 0) {
            throw BusinessException.validation(MIN + ": must not be above " + MAX_PARAMETER);
        }
    }
}
