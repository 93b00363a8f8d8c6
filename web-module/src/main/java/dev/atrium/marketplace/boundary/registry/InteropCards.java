package dev.atrium.marketplace.boundary.registry;

import java.util.LinkedHashSet;
import java.util.List;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.marketplace.boundary.JsonValues;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentCard;
import dev.atrium.marketplace.entity.Capability;
import dev.atrium.platform.http.JsonProviders;

/**
 * An agent card as other protocols describe agents and tools, with their own (camelCase) field names:
 * an A2A AgentCard (Agent2Agent protocol 0.3) and an MCP tool descriptor. As the spec maps them: name and
 * description carry over, {@code capabilities} become skills (a declared capability's description and media types
 * become the skill's description and modes), the input and output schemas set the default modes (JSON objects, so
 * {@code application/json}) and the MCP {@code inputSchema}, and the url is the agent's invoke endpoint, called with a
 * bearer credential.
 */
final class InteropCards {

    static final String A2A_PROTOCOL_VERSION = "0.3.0";
    static final String JSON = "application/json";

    private InteropCards() {
    }

    static JsonObject a2a(Agent agent, String authorName, String baseUrl) {
        JsonObject card = JsonValues.object(agent.cardJson());
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        var tags = new LinkedHashSet<String>();
        tags.add(agent.category());
        if (card.containsKey("tags")) {
            card.getJsonArray("tags").forEach(t -> tags.add(((JsonString) t).getString()));
        }
        JsonArrayBuilder examples = JsonProviders.JSON.createArrayBuilder();
        if (card.containsKey("test_cases")) {
            card.getJsonArray("test_cases").stream().limit(3)
                    .forEach(c -> examples.add(c.asJsonObject().getJsonObject("input").toString()));
        }
        JsonArray skills = skills(agent, tags, examples.build());
        var provider = JsonProviders.JSON.createObjectBuilder().add("organization", authorName == null
                ? "Atrium developer " + agent.authorId() : authorName).add("url", base);
        return JsonProviders.JSON.createObjectBuilder()
                .add("protocolVersion", A2A_PROTOCOL_VERSION)
                .add("name", agent.displayName())
                .add("description", agent.description())
                .add("url", base + "/v1/agents/" + agent.id() + "/invoke")
                .add("version", agent.version().toString())
                .add("provider", provider)
                .add("documentationUrl", base + "/v1/agents/" + agent.id())
                .add("capabilities", JsonProviders.JSON.createObjectBuilder().add("streaming", false)
                        .add("pushNotifications", false).add("stateTransitionHistory", false))
                .add("securitySchemes", JsonProviders.JSON.createObjectBuilder().add("bearer", JsonProviders.JSON.createObjectBuilder()
                        .add("type", "http").add("scheme", "bearer").add("bearerFormat", "JWT")
                        .add("description", "An Atrium access token or sk- API key")))
                .add("security", JsonProviders.JSON.createArrayBuilder().add(JsonProviders.JSON.createObjectBuilder()
                        .add("bearer", JsonProviders.JSON.createArrayBuilder())))
                .add("defaultInputModes", JsonProviders.JSON.createArrayBuilder().add(JSON))
                .add("defaultOutputModes", JsonProviders.JSON.createArrayBuilder().add(JSON))
                .add("skills", skills)
                .add("supportsAuthenticatedExtendedCard", false)
                .build();
    }

    private static JsonArray skills(Agent agent, LinkedHashSet<String> tags, JsonArray examples) {
        var skills = JsonProviders.JSON.createArrayBuilder();
        List<Capability> declared = Capability.ofCard(agent.cardJson());
        if (declared.isEmpty()) {
            declared = JsonValues.strings(agent.capabilitiesJson()).stream().map(Capability::named).toList();
        }
        for (Capability capability : declared) {
            var tagArray = JsonProviders.JSON.createArrayBuilder();
            tags.forEach(tagArray::add);
            String name = AgentCard.words(capability.name());
            var skill = JsonProviders.JSON.createObjectBuilder()
                    .add("id", capability.name())
                    .add("name", name)
                    .add("description", capability.description() != null ? capability.description()
                            : name + ": " + agent.description())
                    .add("tags", tagArray)
                    .add("inputModes", modes(capability.inputTypes()))
                    .add("outputModes", modes(capability.outputTypes()));
            if (!examples.isEmpty()) {
                skill.add("examples", examples);
            }
            skills.add(skill);
        }
        return skills.build();
    }

    /** The declared media types, or JSON when none are declared (the agent's protocol is JSON on stdin and stdout). */
    private static JsonArrayBuilder modes(List<String> declared) {
        var modes = JsonProviders.JSON.createArrayBuilder();
        if (declared.isEmpty()) {
            modes.add(JSON);
        } else {
            declared.forEach(modes::add);
        }
        return modes;
    }

    /** MCP's Tool: {@code name}, {@code title}, {@code description}, {@code inputSchema}, {@code outputSchema}. */
    static JsonObject mcpTool(Agent agent) {
        JsonObject card = JsonValues.object(agent.cardJson());
        return JsonProviders.JSON.createObjectBuilder()
                .add("name", agent.name())
                .add("title", agent.displayName())
                .add("description", agent.description())
                .add("inputSchema", card.getJsonObject("input_schema"))
                .add("outputSchema", card.getJsonObject("output_schema"))
                .add("annotations", JsonProviders.JSON.createObjectBuilder().add("title", agent.displayName())
                        .add("openWorldHint", runtimeNeedsNetwork(card)))
                .build();
    }

    private static boolean runtimeNeedsNetwork(JsonObject card) {
        JsonObject runtime = card.getJsonObject("runtime");
        return runtime != null && runtime.getBoolean("requires_network", false);
    }
}
