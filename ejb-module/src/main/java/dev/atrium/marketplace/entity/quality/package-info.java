/**
 * How good an agent is: the scoring job's figures over its window ({@code AgentQuality}, {@code QualityScore}), the
 * listing's {@code RankingScore}, and users' reviews with their ratings ({@code AgentReview}). {@code Agent} keeps its
 * current scores; nothing here refers back to it.
 */
package dev.atrium.marketplace.entity.quality;
