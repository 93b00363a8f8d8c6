/**
 * The marketplace's batch jobs {@code quality-scoring} and {@code agent-rescan}: the listed agents read in id order a
 * page at a time, scored through {@code QualityScoring} or re-scanned through {@code RescanService}. Started by
 * {@code QualityScoringSchedule}, {@code AgentRescanSchedule} or an administrator.
 */
package dev.atrium.marketplace.batch;
