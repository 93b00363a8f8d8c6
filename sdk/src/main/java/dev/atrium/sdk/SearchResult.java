package dev.atrium.sdk;

import java.util.List;

/** The agents a search found, nearest first, and how many matched in all. */
public record SearchResult(List<AgentHit> agents, long total) {

    public SearchResult {
        agents = List.copyOf(agents);
    }
}
