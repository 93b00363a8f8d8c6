package dev.atrium.ai.control.models;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Every model call of this instance goes through here: at most {@code atrium.ai.max-concurrent-calls} (10) run at
 * once; a call beyond waits up to {@code atrium.ai.call-wait-seconds} (10) for a slot and is then refused with 503.
 */
@ApplicationScoped
public class ModelGateway {

    @Inject
    EchoProvider echo;

    @Inject
    OpenAiProvider openai;

    @Inject
    @ConfigProperties
    AiConfig config;

    private Semaphore slots;

    @PostConstruct
    void init() {
        slots = new Semaphore(config.maxConcurrentCalls, true);
    }

    public Completion complete(ModelDefinition model, List<ChatTurn> messages) {
        return complete(model, messages, null);
    }

    /** A whole answer sampled at {@code temperature} (null: the provider's default). */
    public Completion complete(ModelDefinition model, List<ChatTurn> messages, Double temperature) {
        acquire();
        try {
            return provider(model).complete(model.upstream(), messages, temperature);
        } finally {
            slots.release();
        }
    }

    public Usage stream(ModelDefinition model, List<ChatTurn> messages, Consumer<String> onDelta,
                        BooleanSupplier cancelled) {
        acquire();
        try {
            return provider(model).stream(model.upstream(), messages, onDelta, cancelled);
        } finally {
            slots.release();
        }
    }

    /** Calls running now, for operations. */
    public int inFlight() {
        return config.maxConcurrentCalls - slots.availablePermits();
    }

    private void acquire() {
        boolean acquired;
        try {
            acquired = slots.tryAcquire(config.callWaitSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            acquired = false;
        }
        if (!acquired) {
            throw new BusinessException(Problem.UNAVAILABLE, "All model slots are busy; retry shortly", null,
                    Map.of("Retry-After", "5"));
        }
    }

    private ModelProvider provider(ModelDefinition model) {
        return switch (model.provider()) {
            case ModelCatalog.ECHO -> echo;
            case "openai" -> openai;
            default -> throw new BusinessException(Problem.UNAVAILABLE,
                    "Model " + model.id() + " names an unknown provider");
        };
    }
}
