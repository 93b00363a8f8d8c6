package dev.atrium.ai.control.models;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;

/**
 * The development model: answers deterministically by echoing the last user message, word by word with a small
 * delay, so streaming, resume and quotas behave as with a real model without one.
 */
@ApplicationScoped
public class EchoProvider implements ModelProvider {

    @Inject
    @ConfigProperties
    AiConfig config;

    @Override
    public String name() {
        return ModelCatalog.ECHO;
    }

    static String answer(List<ChatTurn> messages) {
        String last = "";
        for (ChatTurn turn : messages) {
            if ("user".equals(turn.role())) {
                last = turn.content();
            }
        }
        return "Echo: " + last;
    }

    private static int input(List<ChatTurn> messages) {
        return messages.stream().mapToInt(m -> Usage.estimate(m.content())).sum();
    }

    @Override
    public Completion complete(String upstreamModel, List<ChatTurn> messages) {
        String answer = answer(messages);
        return new Completion(answer, new Usage(input(messages), Usage.estimate(answer)));
    }

    @Override
    public Usage stream(String upstreamModel, List<ChatTurn> messages, Consumer<String> onDelta,
                        BooleanSupplier cancelled) {
        String answer = answer(messages);
        var sent = new StringBuilder();
        String[] words = answer.split("(?<= )");
        for (String word : words) {
            if (cancelled.getAsBoolean()) {
                break;
            }
            onDelta.accept(word);
            sent.append(word);
            try {
                Thread.sleep(config.echoDelayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new Usage(input(messages), Usage.estimate(sent.toString()));
    }
}
