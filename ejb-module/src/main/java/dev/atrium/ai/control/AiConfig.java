package dev.atrium.ai.control;

import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.atrium.ai.control.models.ModelCatalog;

/**
 * The ai context's configuration: every key under {@code atrium.ai}, {@code atrium.llm} and {@code atrium.files}, with
 * its default. {@link ModelCatalog} reads the per-model keys ({@code atrium.ai.models}, {@code atrium.ai.model.<id>.*})
 * by name.
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

    /**
     * The task workers of an instance: the sessions of the tasks' message-driven bean, whose {@code maxSession} reads
     * this key with this default when the application is deployed (MaxSessionTest keeps the two equal).
     */
    @ConfigProperty(name = "ai.task-workers", defaultValue = "4")
    public int taskWorkers;

    /** A task whose model call failed is delivered again this many times before it fails. */
    @ConfigProperty(name = "ai.task-retries", defaultValue = "2")
    public int taskRetries;

    /** Past this, a task's stream is cancelled and the attempt fails. */
    @ConfigProperty(name = "ai.task-soft-limit-seconds", defaultValue = "120")
    public long taskSoftLimitSeconds;

    /** Past this, a task's model call is abandoned and the task fails at once. */
    @ConfigProperty(name = "ai.task-hard-limit-seconds", defaultValue = "180")
    public long taskHardLimitSeconds;

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

    /**
     * The parse workers of an instance: the sessions of the uploads' message-driven bean, whose {@code maxSession}
     * reads this key with this default when the application is deployed (MaxSessionTest keeps the two equal).
     */
    @ConfigProperty(name = "files.parse-workers", defaultValue = "2")
    public int fileParseWorkers;

    /** The most text kept from one file. */
    @ConfigProperty(name = "files.max-text-chars", defaultValue = "1000000")
    public int fileMaxTextChars;

    /** How long reading one file may take before it fails. */
    @ConfigProperty(name = "files.parse-timeout-seconds", defaultValue = "120")
    public long fileParseTimeoutSeconds;

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
