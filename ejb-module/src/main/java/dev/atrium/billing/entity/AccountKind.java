package dev.atrium.billing.entity;

/**
 * The ledger's accounts. A user's {@code USER_BALANCE} and a developer's {@code DEVELOPER_EARNINGS} belong to that
 * user; the others are the platform's (owner 0). A positive balance is what the platform owes (a user's credit, a
 * developer's unpaid earnings) or has earned; {@code EXTERNAL_PAYMENTS} and {@code PROMOTIONS} go negative as money
 * comes in from processors or is granted.
 */
public enum AccountKind {
    USER_BALANCE, DEVELOPER_EARNINGS, PLATFORM_REVENUE, MODEL_COST, PROMOTIONS, EXTERNAL_PAYMENTS, PAYOUTS;

    public boolean perUser() {
        return this == USER_BALANCE || this == DEVELOPER_EARNINGS;
    }
}
