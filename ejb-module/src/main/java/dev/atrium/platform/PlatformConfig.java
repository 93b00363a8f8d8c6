package dev.atrium.platform;

import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The platform's configuration: every key it reads, with its default. The data directory, the HTTP port and the
 * database URL are declared here only; other contexts read them through this class. Left out:
 * {@code otel.sdk.disabled}, which is Payara's key, not Atrium's.
 */
@ConfigProperties(prefix = "atrium")
public class PlatformConfig {

    /**
     * The public address clients reach Atrium at, which links in mail, agent cards, SSO redirects and HTTPS
     * redirects start from; read through {@link BaseUrl}.
     */
    @ConfigProperty(name = "base-url", defaultValue = "http://localhost:8080")
    public String baseUrl;

    /** The embedded data directory: the object store's files, the mail outbox, the master secret's file. */
    @ConfigProperty(name = "data-dir", defaultValue = "./data")
    public String dataDir;

    /**
     * The database's JDBC URL; unset, the H2 file database under the data directory. The data source itself reads it
     * by name ({@code AtriumDataSource}, which the container makes outside CDI).
     */
    @ConfigProperty(name = "db.url")
    public Optional<String> dbUrl;

    /** The broker's URL ({@code tcp://host:61616?…}); unset, the embedded broker, its journal in the data directory. */
    @ConfigProperty(name = "broker.url")
    public Optional<String> brokerUrl;

    /** The port the launcher gives the HTTP listener; agents reach their dependencies through it (the gateway). */
    @ConfigProperty(name = "http.port", defaultValue = "8080")
    public int httpPort;

    /**
     * {@code s3://bucket?endpoint=…&region=…} for S3, {@code file:<path>} for a directory; unset, {@code objects}
     * under the data directory.
     */
    @ConfigProperty(name = "object-store")
    public Optional<String> objectStore;

    /** The S3 access key; unset, the AWS SDK's default chain. */
    @ConfigProperty(name = "s3.access-key")
    public Optional<String> s3AccessKey;

    /** The S3 secret key; unset, the AWS SDK's default chain. */
    @ConfigProperty(name = "s3.secret-key")
    public Optional<String> s3SecretKey;

    /** Mail goes to this SMTP server when set, else to the outbox directory. */
    @ConfigProperty(name = "smtp.host")
    public Optional<String> smtpHost;

    @ConfigProperty(name = "smtp.port", defaultValue = "25")
    public int smtpPort;

    @ConfigProperty(name = "smtp.user")
    public Optional<String> smtpUser;

    @ConfigProperty(name = "smtp.password")
    public Optional<String> smtpPassword;

    @ConfigProperty(name = "smtp.starttls", defaultValue = "false")
    public boolean smtpStarttls;

    /** The sender of every mail; the same default as META-INF/microprofile-config.properties. */
    @ConfigProperty(name = "mail.from", defaultValue = "Atrium <no-reply@atrium.local>")
    public String mailFrom;

    /** The outbox relay publishes at most this many events in one broker transaction. */
    @ConfigProperty(name = "outbox.batch-size", defaultValue = "1000")
    public int outboxBatchSize;

    /** The relay's wait between rounds that found events (a commit's signal wakes it sooner). */
    @ConfigProperty(name = "outbox.poll-millis", defaultValue = "500")
    public long outboxPollMillis;

    /** After rounds that found nothing, the relay's wait doubles up to this. */
    @ConfigProperty(name = "outbox.idle-poll-millis", defaultValue = "15000")
    public long outboxIdlePollMillis;

    /** The longest wait before an event's next try while the broker is unreachable or a publish fails. */
    @ConfigProperty(name = "outbox.max-backoff-seconds", defaultValue = "30")
    public long outboxMaxBackoffSeconds;

    /** Sent events are deleted from the outbox after this. */
    @ConfigProperty(name = "outbox.retention-seconds", defaultValue = "86400")
    public long outboxRetentionSeconds;

    /** A running batch execution's lease in the shared key-value store, renewed three times a lease. */
    @ConfigProperty(name = "batch.lease-seconds", defaultValue = "30")
    public int batchLeaseSeconds;

    /**
     * The jobs whose executions a dead process left are restarted from their checkpoint: names separated by commas.
     * Text rather than a list, so that unit tests can fill this class with its defaults.
     */
    @ConfigProperty(name = "batch.recover-jobs",
            defaultValue = "monthly-payout,quality-scoring,daily-marketplace-report,daily-usage-report,agent-rescan")
    public String batchRecoverJobs;

    /** {@code redis://host:port/db}; unset, the in-process store, which instances do not share. */
    @ConfigProperty(name = "redis.url")
    public Optional<String> redisUrl;

    /** Plain-HTTP requests are redirected (GET, HEAD) or refused. */
    @ConfigProperty(name = "require-https", defaultValue = "false")
    public boolean requireHttps;

    /** The port HTTPS redirects name when the base URL is not itself HTTPS. */
    @ConfigProperty(name = "https-port", defaultValue = "8443")
    public int httpsPort;

    /** The requests per minute of the default rate-limit bucket. */
    @ConfigProperty(name = "rate-limit.per-minute", defaultValue = "100")
    public int rateLimitPerMinute;

    /** The largest request body outside the multipart uploads, which have their own limits. */
    @ConfigProperty(name = "http.max-body-bytes", defaultValue = "1048576")
    public long httpMaxBodyBytes;

    /** Requests slower than this are logged. */
    @ConfigProperty(name = "http.slow-request-seconds", defaultValue = "5.0")
    public double httpSlowRequestSeconds;
}
