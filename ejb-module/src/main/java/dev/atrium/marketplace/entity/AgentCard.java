package dev.atrium.marketplace.entity;

import java.util.ArrayList;
import java.util.List;

/**
 * A card that passed validation, with the values the record and search read from it. {@code json} is the card as
 * submitted (compact JSON); {@code inputSchema}/{@code outputSchema} are compact JSON too. {@code capabilities} are
 * the declared capabilities' names (what the record keeps); the full declarations are read from {@code json}.
 */
public record AgentCard(
        String json,
        String name,
        String displayName,
        SemanticVersion version,
        String description,
        String category,
        List<String> tags,
        List<String> capabilities,
        String inputSchema,
        String outputSchema,
        String pricingJson,
        String dockerImage,
        List<String> entrypoint,
        Integer memoryMb,
        Integer timeoutS,
        boolean requiresNetwork,
        double qualityScore,
        String claimedTrustLevel,
        int testCases) {

    public AgentCard {
        tags = List.copyOf(tags);
        capabilities = List.copyOf(capabilities);
        entrypoint = List.copyOf(entrypoint);
    }

    /** The capability declarations, in the card's order; a card with names only gives declarations of names. */
    public List<Capability> capabilityDeclarations() {
        List<Capability> declared = Capability.ofCard(json);
        return declared.isEmpty() ? capabilities.stream().map(Capability::named).toList() : declared;
    }

    /**
     * The text whose embedding stands for the agent in semantic search: what it is called, what it says it does,
     * its capabilities (with their descriptions), tags and category. Hyphens and underscores in names become spaces,
     * as a user would write.
     */
    public String embeddingText() {
        return embeddingText(displayName, description, capabilityDeclarations(), tags, category);
    }

    public static String embeddingText(String displayName, String description, List<Capability> capabilities,
                                       List<String> tags, String category) {
        var parts = new ArrayList<String>();
        parts.add(displayName + ".");
        parts.add(description);
        if (!capabilities.isEmpty()) {
            // a name alone reads as before, so cards without descriptions keep the text their embedding was made of
            var each = capabilities.stream().map(c -> c.description() == null ? words(c.name())
                    : words(c.name()) + " (" + c.description() + ")").toList();
            parts.add("Capabilities: " + String.join(", ", each) + ".");
        }
        if (!tags.isEmpty()) {
            parts.add("Tags: " + words(String.join(", ", tags)) + ".");
        }
        parts.add("Category: " + words(category) + ".");
        return String.join(" ", parts);
    }

    public static String words(String identifier) {
        return identifier.replace('-', ' ').replace('_', ' ');
    }
}
