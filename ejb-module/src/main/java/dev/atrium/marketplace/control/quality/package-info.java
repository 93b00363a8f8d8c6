/**
 * Quality figures: {@code QualityMeasure} (an agent's figures over a window, also for rollouts) and the daily
 * scoring job's work ({@code QualityScoring}); the job's schedule stays in {@code control}.
 */
package dev.atrium.marketplace.control.quality;
