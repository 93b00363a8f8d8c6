/**
 * The billing context's batch jobs: {@code monthly-payout} (developers settled a chunk at a time through
 * {@code Payouts}, the processor transfers sent, the month's pain.001 file written) and
 * {@code daily-marketplace-report} (the day's CSV through {@code MarketplaceReports}). Started by
 * {@code PayoutSchedule}, {@code MarketplaceReportSchedule} or an administrator; they hold no state of their own.
 */
package dev.atrium.billing.batch;
