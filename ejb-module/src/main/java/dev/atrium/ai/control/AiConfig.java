package dev.atrium.ai.control;

import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The ai context's configuration: every key under {@code atrium.ai} and {@code atrium.llm}, with its default. The task
 * workers' keys ({@code atrium.ai.task-*} but the retention) and the parse workers' ({@code atrium.files.*}) stay with
 * {@link TaskWorker} and {@link FileParseWorker}, which belong to the messaging rewrite; {@link ModelCatalog} reads the
 * per-model keys ({@code atrium.ai.models}, {@code atrium.ai.model.<id>.*}) by name.
 */
@ConfigProperties(prefix = "atrium")
public class AiConfig {

    /** At most this many model calls run at once on an instance; more wait for a slot. */
    @ConfigProperty(name = "ai.max-concurrent-calls", defaultValue = "10")
    public int maxConcurrentCalls;

    /** How long a model call waits for a slot before it is refused with 503. */
    @ConfigProperty(name = "ai.call-wait-seconds", defaultValue = "10")
    public int callWaitSeconds;

    /** How long a streamed answer is kept for resuming, from the start of the answer. */
    @ConfigProperty(name = "ai.stream-cache-seconds", defaultValue = "3600")
    public long streamCacheSeconds;

    /** How long a deterministic request's answer is kept; 0 turns the response cache off. */
    @ConfigProperty(name = "ai.response-cache-seconds", defaultValue = "7200")
    public long responseCacheSeconds;

    /** The most a user's tier is used again without reading it (see {@link KnownTiers}). */
    @ConfigProperty(name = "ai.tier-cache-seconds", defaultValue = "30")
    public long tierCacheSeconds;

    /** How long a finished task stays visible to its owner. */
    @ConfigProperty(name = "ai.task-retention-seconds", defaultValue = "3600")
    public long taskRetentionSeconds;

    /** How long a conversation's messages stay cached after its last change; 0 turns the cache off. */
    @ConfigProperty(name = "ai.conversation-cache-seconds", defaultValue = "3600")
    public long conversationCacheSeconds;

    /** The development model's pause between two words of a streamed answer. */
    @ConfigProperty(name = "ai.echo.delay-ms", defaultValue = "40")
    public long echoDelayMs;

    /** A resumed answer whose cache has not changed for this long (its instance stopped) ends with an error. */
    @ConfigProperty(name = "ai.stream-resume-stall-seconds", defaultValue = "60")
    public long streamResumeStallSeconds;

    /** At most this many answers stream at once on an instance, each on a thread of its own. */
    @ConfigProperty(name = "ai.stream-threads", defaultValue = "500")
    public int streamThreads;

    /** An OpenAI-compatible endpoint ({@code …/v1}); unset, only the {@code echo} development model answers. */
    @ConfigProperty(name = "llm.base-url")
    public Optional<String> llmBaseUrl;

    /** Sent only as the {@code Authorization} bearer, and not at all when a token URL is set. */
    @ConfigProperty(name = "llm.api-key")
    public Optional<String> llmApiKey;

    /** An OAuth 2.0 token endpoint: the bearer is then a client-credentials token. */
    @ConfigProperty(name = "llm.token-url")
    public Optional<String> llmTokenUrl;

    @ConfigProperty(name = "llm.client-id")
    public Optional<String> llmClientId;

    @ConfigProperty(name = "llm.client-secret")
    public Optional<String> llmClientSecret;

    /** The scope asked for with the client-credentials token, if any. */
    @ConfigProperty(name = "llm.scope")
    public Optional<String> llmScope;
}
