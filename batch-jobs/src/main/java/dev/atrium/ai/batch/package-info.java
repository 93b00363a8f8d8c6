/**
 * The AI context's batch job {@code daily-usage-report} ({@code META-INF/batch-jobs/daily-usage-report.xml}): the
 * day's usage rows read through {@code UsageReports}, written as numbered CSV parts, then joined into the day's report
 * in the object store. Started by {@code UsageReportSchedule} or an administrator; the work itself is the context's
 * services' (ejb-module).
 */
package dev.atrium.ai.batch;
