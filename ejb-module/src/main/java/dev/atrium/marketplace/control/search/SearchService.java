package dev.atrium.marketplace.control.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.platform.error.BusinessException;

/**
 * Semantic search and recommendation over this instance's index of active agents. The index gives the order;
 * the rows are read from the database, so what is shown (downloads, quality) is current, and an agent that left
 * {@code active} a moment ago is never shown.
 */
@Stateless
public class SearchService {

    public static final int DEFAULT_LIMIT = 10;
    public static final int MAX_LIMIT = 100;
    public static final int DEFAULT_TOP_K = 5;
    public static final int QUERY_MAX = 1000;

    /** An agent found, with its cosine distance to the query. */
    public record Found(Agent agent, double distance) {
    }

    public record Result(List<Found> agents, long total) {
    }

    /** A recommendation: the task's analysis and the agents found for its capabilities. */
    public record Recommendation(TaskAnalyzer.Analysis analysis, Result result) {
    }

    @Inject
    SearchIndex index;

    @Inject
    Embeddings embeddings;

    @Inject
    Analyzers analyzers;

    @EJB
    AgentRepository agents;

    /** Reads the {@code limit} parameter: 1 to {@value #MAX_LIMIT}, else 422. */
    public static int limit(String text) {
        try {
            int limit = text == null || text.isBlank() ? DEFAULT_LIMIT : Integer.parseInt(text.trim());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw BusinessException.validation("limit: must be an integer from 1 to " + MAX_LIMIT);
    }

    public Result search(String q, String category, int limit, SearchMode mode) {
        if (q == null || q.isBlank()) {
            throw BusinessException.validation("q: is required");
        }
        if (q.length() > QUERY_MAX) {
            throw BusinessException.validation("q: at most " + QUERY_MAX + " characters");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw BusinessException.validation("limit: must be from 1 to " + MAX_LIMIT);
        }
        float[] vector = embeddings.embed(q.strip());
        AgentIndex.Page page = mode == SearchMode.HYBRID
                ? index.index().hybrid(vector, q, category, limit)
                : index.index().vector(vector, category, limit);
        return resolve(page);
    }

    public Recommendation recommend(String task, int topK) {
        if (task == null || task.isBlank()) {
            throw BusinessException.validation("task: is required");
        }
        if (topK < 1 || topK > MAX_LIMIT) {
            throw BusinessException.validation("top_k: must be from 1 to " + MAX_LIMIT);
        }
        AgentIndex idx = index.index();
        TaskAnalyzer.Analysis analysis = analyzers.analyzer().analyze(task.strip(), index.capabilities());
        if (analysis.requiredCapabilities().isEmpty()) {
            return new Recommendation(analysis, new Result(List.of(), 0));
        }
        String query = analysis.requiredCapabilities().stream().map(AgentCard::words)
                .collect(Collectors.joining(" "));
        return new Recommendation(analysis, resolve(idx.vector(embeddings.embed(query), null, topK)));
    }

    private Result resolve(AgentIndex.Page page) {
        var ids = page.hits().stream().map(AgentIndex.Hit::id).toList();
        Map<UUID, Agent> rows = agents.activeAmong(ids).stream()
                .collect(Collectors.toMap(Agent::id, Function.identity()));
        var found = new ArrayList<Found>();
        for (AgentIndex.Hit hit : page.hits()) {
            Agent a = rows.get(hit.id());
            if (a != null) {
                found.add(new Found(a, hit.distance()));
            }
        }
        return new Result(found, page.total());
    }
}
