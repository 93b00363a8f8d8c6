package dev.atrium.ai.control;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.atrium.ai.control.models.ModelCatalog;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.entity.Tier;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.KeyValueStore;

/**
 * The tenant quotas of spec 02, checked before any model call and in this order: the model must be allowed for the
 * user's tier (403); the day's tokens must not be used up (429); the day's requests must be below the tier's limit
 * (429 with rate-limit headers). Counters are per user per UTC day in the shared store. A request that starts under
 * the token limit is finished even if it crosses it; the next one is refused.
 */
@ApplicationScoped
public class QuotaService {

    private static final Duration KEEP = Duration.ofDays(2);
    /** Longer model names in a request are not repeated in the answer (the name is the caller's input). */
    private static final int MODEL_NAME_SHOWN = 50;

    /** A request let through: the model to use and what is left of the day's requests. */
    public record Admission(ModelDefinition model, Tier tier, long remainingRequests, long resetEpochSeconds) {
    }

    /** What a user used today. */
    public record DailyUsage(long requests, long tokens) {
    }

    @Inject
    KeyValueStore store;

    @Inject
    Clock clock;

    @EJB
    TenantService tenants;

    @Inject
    ModelCatalog catalog;

    /**
     * Whether the caller's tier may use the model a request names (the default one when it names none): spec 02's
     * first quota check, made before the request's body is validated. A model that does not exist is not in any
     * tier's list, so it is refused the same way (403), naming the models the tier may use. Answers the tier, which
     * the request hands to {@link #admit(long, Tier, String)} rather than reading it twice.
     */
    public Tier allowed(long userId, String modelId) {
        Tier tier = tenants.tierOf(userId);
        allowed(tier, modelId);
        return tier;
    }

    private ModelDefinition allowed(Tier tier, String modelId) {
        ModelDefinition model = modelId == null || modelId.isBlank() ? catalog.defaultModel()
                : catalog.find(modelId.trim()).orElse(null);
        if (model == null || !model.allows(tier)) {
            String named = model != null ? "Model " + model.id()
                    : modelId.strip().length() <= MODEL_NAME_SHOWN ? "Model " + modelId.strip() : "The model named";
            throw new BusinessException(Problem.FORBIDDEN, named + " is not available on the " + tier.value()
                    + " tier; available: " + catalog.allowedFor(tier).stream().map(ModelDefinition::id)
                    .collect(Collectors.joining(", ")));
        }
        return model;
    }

    public Admission admit(long userId, String modelId) {
        return admit(userId, tenants.tierOf(userId), modelId);
    }

    /** As {@link #admit(long, String)}, for a caller whose tier this request has read already. */
    public Admission admit(long userId, Tier tier, String modelId) {
        ModelDefinition model = allowed(tier, modelId);
        LocalDate day = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        long reset = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
        long tokens = store.count(tokensKey(userId, day));
        if (tokens >= tier.dailyTokens()) {
            throw limited("Daily token quota of the " + tier.value() + " tier used up", tier.dailyTokens(), reset);
        }
        long requests = store.increment(requestsKey(userId, day), KEEP);
        if (requests > tier.dailyRequests()) {
            throw limited("Daily request quota of the " + tier.value() + " tier used up", tier.dailyRequests(),
                    reset);
        }
        return new Admission(model, tier, tier.dailyRequests() - requests, reset);
    }

    /** Counts the tokens a finished call used. */
    public void consumed(long userId, int tokens) {
        if (tokens > 0) {
            store.add(tokensKey(userId, LocalDate.now(clock.withZone(ZoneOffset.UTC))), tokens, KEEP);
        }
    }

    public DailyUsage today(long userId, Tier tier) {
        LocalDate day = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        long requests = store.count(requestsKey(userId, day));
        return new DailyUsage(Math.min(requests, tier.dailyRequests()),
                store.count(tokensKey(userId, day)));
    }

    private BusinessException limited(String message, long limit, long reset) {
        long retry = Math.max(1, reset - clock.instant().getEpochSecond());
        return new BusinessException(Problem.RATE_LIMITED, message, "The quota resets at 00:00 UTC",
                Map.of("X-RateLimit-Limit", Long.toString(limit), "X-RateLimit-Remaining", "0",
                        "X-RateLimit-Reset", Long.toString(reset), "Retry-After", Long.toString(retry)));
    }

    private static String requestsKey(long userId, LocalDate day) {
        return "quota:requests:" + userId + ":" + day;
    }

    private static String tokensKey(long userId, LocalDate day) {
        return "quota:tokens:" + userId + ":" + day;
    }
}
