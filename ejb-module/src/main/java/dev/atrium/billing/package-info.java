/**
 * Billing and settlement: money as a double-entry ledger.
 *
 * <p>Owns: {@code billing_accounts} (a user's balance, a developer's earnings, the platform's revenue, model cost,
 * promotions, external payments and payouts, each with its balance cached under a row lock), {@code journal_entries}
 * and {@code journal_lines} (inserted only; each entry's lines sum to zero; its reference names its cause and is
 * unique, so nothing posts twice), {@code billing_holds} (balance reserved for invocations in flight) and
 * {@code billing_top_ups}, {@code billing_payout_accounts} (IBAN checked by mod 97) and {@code billing_payouts} (each
 * developer's outcome of each month's run); the pain.001 files under {@code billing/payouts/} and the daily reports
 * under {@code reports/marketplace/} in the object store. Money has 6 decimals, rounded half to even ({@code Money});
 * a charge splits 70/20/10 ({@code RevenueSplit}).
 *
 * <p>Public operations: {@code Balances} (balance, hold, release; the invoke gateway's through the marketplace's
 * {@code CallFunds}, which {@code BalancesForCalls} implements), {@code PaymentsHealth} (the {@code payments} line of
 * {@code /health}), {@code UsageBilling.bill} (the {@code billing} queue's consumer, {@code BillingQueue}, its bean
 * {@code BillingListener}), {@code TopUps} (create, the processor's signed webhook) through a {@code PaymentProcessor} (embedded, signed webhook, Stripe), {@code AdminBilling} (credit, refund), {@code LedgerQueries} (a user's statement), {@code Revenue},
 * {@code PayoutAccounts}, {@code Payouts} (the {@code monthly-payout} job's settle and file, started by
 * {@code PayoutSchedule}), {@code MarketplaceReports} (the {@code daily-marketplace-report} job's),
 * {@code Reconciliation}.
 *
 * <p>Leaves out: restarting executions a dead process left (the platform's {@code BatchRecovery}), card data
 * (the processor's side). Usage records are the marketplace's, read through {@code UsageQueries}; users are named through the identity context's
 * {@code UserService}.
 *
 * <p>Its configuration lives in {@code BillingConfig}.
 */
package dev.atrium.billing;
