package dev.atrium.sdk;

import java.util.List;

/**
 * Agents for a task: the capabilities the server read in it, the closest category (null when none is close), and
 * the agents, nearest first.
 */
public record Recommendation(List<String> requiredCapabilities, String category, List<AgentHit> agents, long total) {

    public Recommendation {
        requiredCapabilities = List.copyOf(requiredCapabilities);
        agents = List.copyOf(agents);
    }
}
