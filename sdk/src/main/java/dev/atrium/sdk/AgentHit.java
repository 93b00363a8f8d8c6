package dev.atrium.sdk;

/**
 * An active agent found by search or recommendation.
 *
 * @param distance 1 − cosine similarity between the query and the agent (0 to 2, nearest first)
 */
public record AgentHit(String id, String name, String displayName, String description, double qualityScore,
                       long downloads, double distance) {
}
