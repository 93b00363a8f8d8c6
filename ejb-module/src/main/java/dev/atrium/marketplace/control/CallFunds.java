package dev.atrium.marketplace.control;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * The money behind a paid call, which billing keeps and implements: a hold on the caller's balance before the run,
 * claimed by the run's usage record (billing settles it from the billing queue), or released when the call does not
 * run. The marketplace names it here so that it needs not know billing, which reads the marketplace's usage.
 */
public interface CallFunds {

    /**
     * Reserves {@code amount} of the user's available balance for one invocation; answers the hold's id. 402 with
     * code 30001 when the available balance does not cover it.
     */
    UUID hold(long userId, BigDecimal amount);

    /** Binds the hold to the usage record written in the caller's transaction; 409 when it is no longer open. */
    void claim(UUID holdId);

    /** Gives a hold back untouched (the run did not happen); false when it was closed already. */
    boolean release(UUID holdId);
}
