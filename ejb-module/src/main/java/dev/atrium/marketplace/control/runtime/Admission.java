package dev.atrium.marketplace.control.runtime;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.atrium.marketplace.entity.Pricing;

/**
 * One call's admission, and the one owner of what it reserved: the free call of the month, the subscription month,
 * the dependency budget, the balance hold, the free tier's count. Every step that reserves registers its give-back
 * here; {@link #close()} gives back, in reverse order, whatever a call that was never recorded holds, so no branch that
 * refuses after a reservation can leak one. Once the usage is recorded ({@link #recorded}) the hold belongs to the
 * usage record (billing settles it); a failed run still gives back the free call and the month's fee.
 */
final class Admission implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Admission.class.getName());

    private final UUID runId;
    private final Deque<Runnable> always = new ArrayDeque<>();
    private final Deque<Runnable> unlessServed = new ArrayDeque<>();
    private Pricing.Charge charge = Pricing.Charge.FREE;
    private UUID holdId;
    private UUID budgetRoot;
    private BigDecimal budgetReserved = BigDecimal.ZERO;
    private Admissions admissions;
    private boolean recorded;

    Admission(UUID runId) {
        this.runId = runId;
    }

    UUID runId() {
        return runId;
    }

    Pricing.Charge charge() {
        return charge;
    }

    void decided(Pricing.Charge charge) {
        this.charge = charge;
    }

    UUID holdId() {
        return holdId;
    }

    /** A reservation given back when the call is not recorded. */
    void onRefusal(Runnable giveBack) {
        always.push(giveBack);
    }

    /** A reservation given back when the call is not recorded, or was recorded as failed (it served nothing). */
    void unlessServed(Runnable giveBack) {
        unlessServed.push(giveBack);
    }

    void held(UUID holdId, Runnable release) {
        this.holdId = holdId;
        onRefusal(release);
    }

    /** {@code amount} of the invocation {@code root}'s budget is reserved for this call. */
    void budgeted(Admissions admissions, UUID root, BigDecimal amount) {
        this.admissions = admissions;
        this.budgetRoot = root;
        this.budgetReserved = amount;
    }

    /** The usage is recorded at {@code price}: the hold is the record's now; the budget keeps only the price. */
    void recorded(boolean succeeded, BigDecimal price) {
        recorded = true;
        always.clear();
        if (budgetRoot != null) {
            giveBack(() -> admissions.giveBackToBudget(budgetRoot, budgetReserved.subtract(price)));
        }
        if (!succeeded) {
            unlessServed.forEach(Admission::giveBack);
        }
        unlessServed.clear();
    }

    @Override
    public void close() {
        if (recorded) {
            return;
        }
        if (budgetRoot != null) {
            giveBack(() -> admissions.giveBackToBudget(budgetRoot, budgetReserved));
        }
        always.forEach(Admission::giveBack);
        unlessServed.forEach(Admission::giveBack);
        always.clear();
        unlessServed.clear();
    }

    private static void giveBack(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            // the sweeper releases a hold left behind; a count left is the caller's loss of one call at worst
            LOG.log(Level.WARNING, "Could not give back a reservation of a refused call", e);
        }
    }
}
