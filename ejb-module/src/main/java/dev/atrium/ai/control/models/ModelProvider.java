package dev.atrium.ai.control.models;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs a model: the OpenAI-compatible HTTP provider, or the {@code echo} development model. Streaming hands each
 * fragment to {@code onDelta} as it arrives and stops early when {@code cancelled} turns true (the client went away).
 */
public interface ModelProvider {

    /** {@code openai} or {@code echo}, as the catalog names providers. */
    String name();

    Completion complete(String upstreamModel, List<ChatTurn> messages);

    /** A whole answer sampled at {@code temperature} (null: the provider's default). */
    default Completion complete(String upstreamModel, List<ChatTurn> messages, Double temperature) {
        return complete(upstreamModel, messages);
    }

    /** Streams the answer; returns the usage of what was generated (up to the cancellation, if any). */
    Usage stream(String upstreamModel, List<ChatTurn> messages, Consumer<String> onDelta, BooleanSupplier cancelled);
}
