package dev.atrium.marketplace.control.submission;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.VersionRange;

/**
 * The flat strategy's submission rule: every agent a card depends on must be listed now, with a current version
 * inside the declared range, and no dependency may lead back to the submitted agent (a cycle would call itself
 * through the gateway). Each unresolved dependency is reported at its pointer.
 */
@Stateless
public class DependencyResolver {

    /** How deep the cycle search follows dependencies of dependencies. */
    static final int MAX_DEPTH = 10;

    @EJB
    AgentRepository agents;

    /** The problems of the card's agent dependencies; empty when each resolves. {@code cardJson} was validated. */
    public List<SubmissionProblem> problems(String agentName, String cardJson) {
        var problems = new ArrayList<SubmissionProblem>();
        List<JsonObject> declared = dependencies(cardJson);
        for (int i = 0; i < declared.size(); i++) {
            String name = declared.get(i).getString("name");
            String pointer = "/dependencies/agents/" + i;
            Optional<Agent> found = agents.findByName(name).filter(Agent::isActive);
            if (found.isEmpty()) {
                problems.add(SubmissionProblem.card(pointer + "/name", "no listed agent is named '" + name + "'"));
                continue;
            }
            VersionRange range = VersionRange.parse(declared.get(i).getString("version"));
            Agent dependency = found.get();
            if (!range.contains(dependency.version())) {
                problems.add(SubmissionProblem.card(pointer + "/version", "'" + name + "' serves version "
                        + dependency.version() + ", outside " + range));
                continue;
            }
            if (leadsBackTo(agentName, dependency)) {
                problems.add(SubmissionProblem.card(pointer + "/name", "'" + name + "' depends, directly or "
                        + "through others, on '" + agentName + "': a cycle"));
            }
        }
        return problems;
    }

    /** True when following the listed agents' current dependencies from {@code start} reaches {@code name}. */
    private boolean leadsBackTo(String name, Agent start) {
        var seen = new HashSet<String>();
        var queue = new ArrayDeque<Agent>();
        queue.add(start);
        int depth = 0;
        while (!queue.isEmpty() && depth++ < MAX_DEPTH * 10) {
            Agent next = queue.poll();
            if (!seen.add(next.name())) {
                continue;
            }
            for (JsonObject dependency : dependencies(next.cardJson())) {
                String depends = dependency.getString("name", "");
                if (depends.equals(name)) {
                    return true;
                }
                agents.findByName(depends).filter(Agent::isActive).ifPresent(queue::add);
            }
        }
        return false;
    }

    public static List<JsonObject> dependencies(String cardJson) {
        try (var reader = JSON.createReader(new StringReader(cardJson))) {
            JsonObject card = reader.readObject();
            if (card.get("dependencies") instanceof JsonObject d && d.get("agents") instanceof JsonArray list) {
                return list.stream().filter(v -> v instanceof JsonObject o && o.get("name") instanceof JsonString
                        && o.get("version") instanceof JsonString).map(JsonObject.class::cast).toList();
            }
            return List.of();
        }
    }
}
