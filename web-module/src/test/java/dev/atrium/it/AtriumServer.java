package dev.atrium.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;

import no.nav.security.mock.oauth2.MockOAuth2Server;

import redis.clients.jedis.Jedis;

/**
 * Starts one Atrium server on Payara Micro for the whole test run (the WAR the build produced, plus a jar of test
 * batch jobs) and stops it at the end. Mode {@code services} runs it on PostgreSQL, Redis and a real SMTP server
 * (GreenMail); mode {@code embedded} runs it with no configuration at all. Mode {@code resilience} is {@code services}
 * with a Redis server process and an Artemis broker (in this JVM, over TCP) of its own, which its tests stop and
 * start under the running server, and the crash test hook enabled; the server itself can be restarted on the same
 * data.
 */
public final class AtriumServer implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {

    public static final String ADMIN_EMAIL = "admin@atrium.test";
    public static final String ADMIN_PASSWORD = "Admin-Passw0rd";
    public static final String CORS_ORIGIN = "https://app.atrium.test";
    /** A prefix only the versioning test uses: deprecated, with a sunset far away. */
    public static final String DEPRECATED_PREFIX = "/api/v1/tags";
    /** A route with a tiny limit of its own, for the rate-limit test. */
    public static final String LIMITED_ROUTE = "/api/v1/tags";
    public static final int LIMITED_ROUTE_LIMIT = 5;
    /** Where SSO may send browsers in the tests. */
    /** The rollouts' minimum of calls per version before they are judged, on the test server. */
    public static final int ROLLOUT_MIN_CALLS = 5;
    /** What every new user's balance starts with in the tests (the product's default is none). */
    public static final String SIGNUP_CREDIT = "20.00";
    /** The subscription pricing's cap of calls per second in the tests (the product's default is 5). */
    public static final int SUBSCRIPTION_PER_SECOND = 2;
    public static final String WEBHOOK_SECRET = "whsec-integration-tests-0123456789";
    public static final String SSO_REDIRECT = "https://portal.atrium.test/after-login";
    public static final String SSO_SERVICE = "https://service.atrium.test/app";
    /**
     * Task time limits the tasks tests can reach (120 s and 180 s by default), 6 s apart: a loaded machine once ended
     * the soft limit's cancelled read after the hard limit when they were 3 s apart.
     */
    public static final int TASK_SOFT_LIMIT_SECONDS = 6;
    public static final int TASK_HARD_LIMIT_SECONDS = 12;
    /** Task workers per instance: not the default (4), so that TasksIT sees the setting take effect. */
    public static final int TASK_WORKERS = 3;

    /** The marketplace's bundle limit in the tests, small enough to pass it quickly. */
    public static final long BUNDLE_MAX_BYTES = 1024 * 1024;
    static final int SANDBOX_SLOTS = 4;
    /** How long the resilience server waits for Stripe's API (StripeTopUpIT answers later than this once). */
    public static final int STRIPE_TIMEOUT_SECONDS = 3;

    private static AtriumServer instance;

    private final String mode = System.getProperty("atrium.it.mode", "services");
    private final Path work = Path.of(System.getProperty("atrium.it.work", "target/it")).toAbsolutePath();
    private Process process;
    private int port;
    /** The HTTPS listener's port (--sslport), 0 in the embedded modes. */
    private int httpsPort;
    private int smtpPort;
    private GreenMail smtp;
    private String database;
    private Path dataDir;
    private Path advisories;
    private Path log;
    private MockOAuth2Server oauth;
    private StripeStub stripe;
    private List<String> command;
    private List<String> launched = List.of();
    private String stamp;
    private int launches;
    private static Throwable startFailure;
    /** Payara Micro's instance summary after a deployment that failed: it stays up, serving nothing. */
    private static final Pattern NOTHING_DEPLOYED =
            Pattern.compile("\"Deployed\": \\[\\s*\\]");
    private static final Pattern BOOT_COMMAND_FAILED = Pattern.compile("Boot Command \\S+ failed");
    private long logStart;
    private long logReady;
    private Map<String, String> environment;
    private int redisPort;
    private Process redis;
    private int brokerPort;
    private org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ broker;
    private OtlpReceiver otlp;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (AtriumServer.class) {
            if (startFailure != null) {
                // one failed start is enough: every further test class would wait out the start timeout again
                throw new IllegalStateException("Atrium did not start for an earlier test class", startFailure);
            }
            if (instance == null) {
                var server = new AtriumServer();
                try {
                    server.start();
                } catch (Exception | Error e) {
                    startFailure = e;
                    throw e;
                }
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(AtriumServer.class, server);
                instance = server;
            }
        }
    }

    public static AtriumServer get() {
        if (instance == null) {
            throw new IllegalStateException("Annotate the test class with @ExtendWith(AtriumServer.class)");
        }
        return instance;
    }

    /** The collector the server exports its spans to (not in the embedded mode). */
    OtlpReceiver otlp() {
        return java.util.Objects.requireNonNull(otlp, "No collector in the embedded mode");
    }

    /** The stub of Stripe's API the resilience server opens top-ups with. */
    public StripeStub stripe() {
        return stripe;
    }

    public String baseUrl() {
        return "http://localhost:" + port;
    }

    /**
     * The HTTPS listener, as {@code scripts/run} starts it with {@code ATRIUM_TLS_KEYSTORE}: Payara Micro's
     * {@code --sslport} on a self-signed key for localhost (not in the embedded modes).
     */
    public String httpsUrl() {
        if (httpsPort == 0) {
            throw new IllegalStateException("No HTTPS listener in the " + mode + " mode");
        }
        return "https://localhost:" + httpsPort;
    }

    /** No PostgreSQL, Redis or SMTP server: the embedded defaults (also in session mode). */
    public boolean embedded() {
        return !mode.equals("services") && !resilience();
    }

    /**
     * The embedded mode starts as {@code scripts/run} does on a fresh machine: from Payara's launcher with the class
     * data sharing archive {@code scripts/launcher} records, which the JVM must map ({@code -Xshare:on}); the others
     * start payara-micro.jar as it comes.
     */
    boolean throughLauncher() {
        return mode.equals("embedded");
    }

    /** The classes the embedded mode's JVM loaded, each with its source (the archive or a jar). */
    Path classLoadLog() {
        return work.resolve(mode + "-classes.log");
    }

    /** The command of the latest launch. */
    List<String> launchCommand() {
        return launched;
    }

    /** {@code scripts/launcher defaults}: the memory bounds, the collector and the trust store scripts/run sets. */
    private List<String> jvmDefaults() throws Exception {
        Process defaults = new ProcessBuilder("bash", Path.of("../scripts/launcher").toAbsolutePath().normalize()
                .toString(), "defaults").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> options = new String(defaults.getInputStream().readAllBytes()).lines().toList();
        if (!defaults.waitFor(2, TimeUnit.MINUTES) || defaults.exitValue() != 0 || options.isEmpty()) {
            throw new IllegalStateException("scripts/launcher defaults failed: " + options);
        }
        return options;
    }

    private List<String> launcherCommand(Path root) throws Exception {
        Path script = Path.of("../scripts/launcher").toAbsolutePath().normalize();
        Path launcherLog = work.resolve(mode + "-launcher.log");
        Process prepare = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(launcherLog.toFile())).start();
        if (!prepare.waitFor(10, TimeUnit.MINUTES) || prepare.exitValue() != 0) {
            prepare.destroyForcibly();
            throw new IllegalStateException("scripts/launcher failed; see " + launcherLog);
        }
        Process arguments = new ProcessBuilder("bash", script.toString(), "command", root.toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(launcherLog.toFile())).start();
        List<String> jvm = new String(arguments.getInputStream().readAllBytes()).lines().toList();
        if (arguments.waitFor() != 0 || jvm.isEmpty() || jvm.contains("-jar")) {
            throw new IllegalStateException("scripts/launcher gave no launcher (" + jvm + "); see " + launcherLog);
        }
        int jar = command.indexOf("-jar");
        var through = new ArrayList<>(command.subList(0, jar));
        through.addAll(List.of("-Xshare:on", "-Xlog:class+load=info:file=" + classLoadLog()));
        // the launcher's arguments end with the adapter's deployment, which the command names after its jar
        through.addAll(jvm);
        through.addAll(command.subList(jar + 4, command.size()));
        // the launcher's class path carries grizzly-envelope's jar (--addlibs would fail without payara-micro.jar)
        int addlibs = through.indexOf("--addlibs");
        through.subList(addlibs, addlibs + 2).clear();
        // and the WAR unpacked, deployed as a directory as scripts/run deploys it
        int war = through.indexOf("--contextroot") - 1;
        Process unpacked = new ProcessBuilder("bash", script.toString(), "unpacked", through.get(war))
                .redirectError(ProcessBuilder.Redirect.appendTo(launcherLog.toFile())).start();
        String directory = new String(unpacked.getInputStream().readAllBytes()).strip();
        if (unpacked.waitFor() != 0 || !Files.isDirectory(Path.of(directory))) {
            throw new IllegalStateException("scripts/launcher did not unpack " + through.get(war) + "; see "
                    + launcherLog);
        }
        through.set(war, directory);
        return through;
    }

    /** Own Redis and broker that tests may stop, and a server that may be restarted. */
    public boolean resilience() {
        return mode.equals("resilience");
    }

    public boolean sessionMode() {
        return mode.equals("session");
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The OSV advisory file the server's dependency check reads (services mode); re-read when it changes. */
    public Path advisories() {
        return advisories;
    }

    /** The server's log, for tests that check what a request left there. */
    public Path serverLog() {
        return log;
    }

    public String jdbcUrl() {
        return Services.postgresUrl(database);
    }

    /** The SMTP server the platform sends to (services mode). */
    public synchronized GreenMail smtp() {
        return smtp;
    }

    /** Stops the SMTP server, so that deliveries fail until {@link #startSmtp()}. */
    public synchronized void stopSmtp() {
        smtp.stop();
    }

    public synchronized void startSmtp() {
        smtp = new GreenMail(new ServerSetup(smtpPort, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
    }

    private void start() throws Exception {
        Files.createDirectories(work);
        stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        dataDir = work.resolve(mode + "-data-" + stamp);
        log = work.resolve(mode + "-server.log");
        port = freePort();
        Map<String, String> env = new HashMap<>();
        env.put("ATRIUM_DATA_DIR", dataDir.toString());
        // the embedding model's DJL settings, as scripts/run passes them
        env.put("ENGINE_CACHE_DIR", dataDir.resolve("native").toString());
        env.put("DJL_OFFLINE", "true");
        env.put("ATRIUM_HTTP_PORT", Integer.toString(port));
        // every new user starts with this much credit, so that tests invoke paid agents without topping up first
        env.put("ATRIUM_BILLING_SIGNUP_CREDIT", SIGNUP_CREDIT);
        if (sessionMode()) {
            env.put("ATRIUM_LOGIN_MODE", "session");
            env.put("ATRIUM_REQUIRE_HTTPS", "true");
            env.put("ATRIUM_ADMIN_EMAIL", ADMIN_EMAIL);
            env.put("ATRIUM_ADMIN_PASSWORD", ADMIN_PASSWORD);
            env.put("ATRIUM_HTTP_TRUSTED_PROXIES", "127.0.0.1,::1");
            env.put("ATRIUM_CLOCK_ADJUSTABLE", "true");
            env.put("ATRIUM_BASE_URL", baseUrl());
            env.put("ATRIUM_SSO_ALLOWED_REDIRECTS", SSO_SERVICE);
        }
        if (throughLauncher()) {
            // settings, no backend (EmbeddedBatchJobsIT): an administrator to run the jobs, the account a payout file
            // debits, and each test client's own address (Api), so that login limits per address keep apart
            env.put("ATRIUM_ADMIN_EMAIL", ADMIN_EMAIL);
            env.put("ATRIUM_ADMIN_PASSWORD", ADMIN_PASSWORD);
            env.put("ATRIUM_BILLING_PAYOUT_DEBTOR_IBAN", "DE89370400440532013000");
            env.put("ATRIUM_HTTP_TRUSTED_PROXIES", "127.0.0.1,::1");
        }
        if (!embedded()) {
            if (resilience()) {
                redisPort = freePort();
                startRedis();
                brokerPort = freePort();
                startBroker();
                env.put("ATRIUM_BROKER_URL", "tcp://127.0.0.1:" + brokerPort);
                env.put("ATRIUM_TEST_CRASH_AFTER_COMMIT", "true");
                // a killed batch execution is found dead within seconds
                env.put("ATRIUM_BATCH_LEASE_SECONDS", "3");
                // a broker that comes back is found within 2 s
                env.put("ATRIUM_OUTBOX_MAX_BACKOFF_SECONDS", "2");
            }
            database = "atrium_it_" + stamp + "_" + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
            Services.createDatabase(database);
            try (var jedis = new Jedis(URI.create(redisUrl()))) {
                jedis.flushDB();
            }
            smtpPort = freePort();
            startSmtp();
            env.put("ATRIUM_BASE_URL", baseUrl());
            env.put("ATRIUM_DB_URL", jdbcUrl());
            env.put("ATRIUM_DB_USER", Services.postgresUser());
            env.put("ATRIUM_REDIS_URL", redisUrl());
            env.put("ATRIUM_SMTP_HOST", "127.0.0.1");
            env.put("ATRIUM_SMTP_PORT", Integer.toString(smtpPort));
            env.put("ATRIUM_JWT_SECRET", "integration-tests-secret-0123456789abcdef");
            env.put("ATRIUM_ADMIN_EMAIL", ADMIN_EMAIL);
            env.put("ATRIUM_ADMIN_PASSWORD", ADMIN_PASSWORD);
            env.put("ATRIUM_CORS_ORIGINS", CORS_ORIGIN + ",https://other.atrium.test");
            // tests come from one address; each test client names its own, as a proxy would
            env.put("ATRIUM_HTTP_TRUSTED_PROXIES", "127.0.0.1,::1");
            // every class shares one administrator: its clock moves and admin calls get a bucket of their own, so
            // they do not use up the 100 a minute its other calls (moderation, reports) are tested with
            env.put("ATRIUM_RATE_LIMIT_ROUTES", "GET " + LIMITED_ROUTE + "=" + LIMITED_ROUTE_LIMIT
                    + ",POST /api/chat=1000,* /admin=5000,* /api/admin=5000");
            // chat: the echo model for every tier, and a second one only pro and enterprise may use
            env.put("ATRIUM_AI_CALL_WAIT_SECONDS", "1");
            // expiries and lockouts are tested by moving the application clock (POST /admin/clock)
            env.put("ATRIUM_CLOCK_ADJUSTABLE", "true");
            env.put("ATRIUM_SSO_ALLOWED_REDIRECTS", SSO_SERVICE + "," + SSO_REDIRECT);
            env.put("ATRIUM_MARKETPLACE_BUNDLE_MAX_BYTES", Long.toString(BUNDLE_MAX_BYTES));
            // a copy of the bundled advisory file, so that a test can publish an advisory (SubmissionChecksIT)
            advisories = work.resolve(mode + "-advisories-" + stamp + ".osv.json");
            try (var bundled = AtriumServer.class.getClassLoader().getResourceAsStream("marketplace/advisories.osv.json")) {
                Files.write(advisories, bundled == null ? "[]".getBytes(java.nio.charset.StandardCharsets.UTF_8)
                        : bundled.readAllBytes());
            }
            env.put("ATRIUM_MARKETPLACE_ADVISORIES", advisories.toString());
            // the invoke gateway: a known slot pool with a short wait (InvokeGatewayIT fills it)
            env.put("ATRIUM_SANDBOX_SLOTS", Integer.toString(SANDBOX_SLOTS));
            env.put("ATRIUM_SANDBOX_WAIT_SECONDS", "2");
            // rollouts are judged on a few real invocations (RolloutIT), not the production 50 per version
            env.put("ATRIUM_MARKETPLACE_ROLLOUT_MIN_CALLS", Integer.toString(ROLLOUT_MIN_CALLS));
            // top-ups wait for the processor's signed callback, which BillingIT sends as a processor would
            env.put("ATRIUM_BILLING_PROCESSOR", "webhook");
            env.put("ATRIUM_BILLING_WEBHOOK_SECRET", WEBHOOK_SECRET);
            if (resilience()) {
                // top-ups go to Stripe's API, played by a stub; Stripe's webhook events come signed (StripeTopUpIT)
                stripe = StripeStub.start();
                env.put("ATRIUM_BILLING_PROCESSOR", "stripe");
                env.put("ATRIUM_BILLING_STRIPE_API_BASE", stripe.baseUrl());
                env.put("ATRIUM_BILLING_STRIPE_SECRET_KEY", StripeStub.SECRET_KEY);
                env.put("ATRIUM_BILLING_STRIPE_WEBHOOK_SECRET", StripeStub.WEBHOOK_SECRET);
                // short, so that StripeTopUpIT's late answer passes it quickly
                env.put("ATRIUM_BILLING_STRIPE_TIMEOUT_SECONDS", Integer.toString(STRIPE_TIMEOUT_SECONDS));
            }
            env.put("ATRIUM_BILLING_PAYOUT_DEBTOR_NAME", "Atrium Test Platform");
            env.put("ATRIUM_MARKETPLACE_SUBSCRIPTION_CALLS_PER_SECOND", Integer.toString(SUBSCRIPTION_PER_SECOND));
            env.put("ATRIUM_BILLING_PAYOUT_DEBTOR_IBAN", "DE89370400440532013000");
            env.put("ATRIUM_BILLING_PAYOUT_DEBTOR_BIC", "COBADEFFXXX");
            env.put("ATRIUM_API_DEPRECATIONS", DEPRECATED_PREFIX + "|2026-01-01|2099-01-01|/api/v2/tags,"
                    + "/api/v0|2020-01-01|2020-12-31|/api/v1");
            startOAuthProviders(env);
            // the AI backend: models served from this JVM beside echo, and task time limits a test can reach
            env.putAll(TestModelServer.environment());
            env.put("ATRIUM_AI_MODELS", env.get("ATRIUM_AI_MODELS") + ",echo-pro");
            env.put("ATRIUM_AI_MODEL_ECHO_PRO_PROVIDER", "echo");
            env.put("ATRIUM_AI_MODEL_ECHO_PRO_TIERS", "pro,enterprise");
            env.put("ATRIUM_AI_MODEL_SCRIPTED_INPUT_PRICE", UsageReportIT.SCRIPTED_INPUT_PRICE);
            env.put("ATRIUM_AI_MODEL_SCRIPTED_OUTPUT_PRICE", UsageReportIT.SCRIPTED_OUTPUT_PRICE);
            env.put("ATRIUM_AI_TASK_SOFT_LIMIT_SECONDS", Integer.toString(TASK_SOFT_LIMIT_SECONDS));
            env.put("ATRIUM_AI_TASK_HARD_LIMIT_SECONDS", Integer.toString(TASK_HARD_LIMIT_SECONDS));
            env.put("ATRIUM_AI_TASK_WORKERS", Integer.toString(TASK_WORKERS));
            // every call is traced to a collector in this JVM (TraceIT)
            otlp = OtlpReceiver.start();
            env.putAll(otlp.environment());
        }
        // the embedded mode runs the product's own classes: no test hook, the product's clock
        Path war = ItWar.build(Path.of(System.getProperty("atrium.war", "target/atrium.war")),
                Path.of("target/test-classes"), work.resolve(mode + "-atrium-it.war"), !throughLauncher());
        // the JVM's settings as every launcher takes them (the collector, the heap and the other memory bounds)
        command = new ArrayList<>(List.of(javaBin()));
        command.addAll(jvmDefaults());
        List<String> tls = List.of();
        if (!embedded()) {
            // HTTPS as scripts/run serves it with ATRIUM_TLS_KEYSTORE: the keystore for the JVM, --sslport, --sslcert
            httpsPort = freePort();
            command.addAll(List.of("-Djavax.net.ssl.keyStore=" + tlsKeystore(), "-Djavax.net.ssl.keyStorePassword="
                    + TLS_PASSWORD));
            tls = List.of("--sslport", Integer.toString(httpsPort), "--sslcert", TLS_ALIAS);
        }
        command.addAll(List.of("-Djdk.httpclient.connectionPoolSize=20", "-jar",
                System.getProperty("payara.jar", "target/payara-micro.jar"),
                // Artemis's resource adapter first: the WAR's message-driven beans consume through it
                "--deploy", Path.of(System.getProperty("atrium.rar", "target/artemis-rar.rar")).toAbsolutePath()
                        .toString(),
                "--deploy", war.toString(), "--contextroot", "/",
                // the reports subsystem beside it, as an operator deploys it (docs/operations.md, "Reports")
                "--deploy", Path.of(System.getProperty("atrium.reports.war",
                        "../reports-module/target/atrium-reports.war")).toAbsolutePath() + ":/reports",
                "--port", Integer.toString(port),
                "--nohazelcast", "--disablephonehome",
                "--rootdir", "(set at each launch)",
                "--prebootcommandfile", preBootFile().toString(),
                // the HTTP parser's refusals in the envelope, as every launcher starts Payara Micro
                "--addlibs", Path.of(System.getProperty("atrium.grizzly-envelope.jar",
                        "target/grizzly-envelope.jar")).toAbsolutePath().toString()));
        command.addAll(tls);
        if (throughLauncher()) {
            // Payara's logging as scripts/run sets it: the quiet start (QuietStartIT)
            command.addAll(List.of("--logproperties",
                    Path.of("../server-config/payara/logging.properties").toAbsolutePath().toString()));
        }
        environment = env;
        Files.deleteIfExists(log);
        launch();
    }

    static final String TLS_ALIAS = "atrium";
    /** Payara's master password: the key's and the store's, as the JVM's trust store has it too. */
    static final String TLS_PASSWORD = "changeit";

    /** A self-signed key for localhost in a PKCS12 store, made by the JDK's keytool (ContainerErrorsIT trusts it). */
    private Path tlsKeystore() throws Exception {
        Path store = work.resolve(mode + "-tls-" + stamp + ".p12");
        Files.deleteIfExists(store);
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", TLS_ALIAS, "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", TLS_PASSWORD, "-keypass", TLS_PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        if (!keytool.waitFor(2, TimeUnit.MINUTES) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        return store;
    }

    /** Another instance's own ports in a copy of the command: HTTP, and HTTPS when the command has it. */
    private static void ownPorts(List<String> copy, int httpPort) {
        copy.set(copy.indexOf("--port") + 1, Integer.toString(httpPort));
        int https = copy.indexOf("--sslport");
        if (https >= 0) {
            copy.set(https + 1, Integer.toString(freePort()));
        }
    }

    /**
     * The shared server-config/payara/atrium.asadmin, then Payara Micro's own micro-envelope.asadmin: Payara Micro
     * takes one file before boot, and every launcher joins the two.
     */
    private Path preBootFile() throws IOException {
        Path config = Path.of("../server-config/payara").toAbsolutePath();
        Path joined = work.resolve(mode + "-preboot.asadmin");
        String adapter = "";
        if (resilience()) {
            // the message-driven beans consume from this run's own broker: the adapter is pointed at it, as an
            // operator points it at a broker other than the embedded one ("=" escaped in a value;
            // docs/operations.md, "Payara Server (the EAR)")
            adapter = "create-resource-adapter-config --property ConnectorClassName="
                    + "org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory"
                    + ":ConnectionParameters=host\\=127.0.0.1;port\\=" + brokerPort + " artemis-rar\n";
        }
        Files.writeString(joined, Files.readString(config.resolve("atrium.asadmin"))
                + Files.readString(config.resolve("micro-envelope.asadmin")) + adapter);
        return joined;
    }

    private void launch() throws Exception {
        // a runtime directory per launch: Payara Micro would deploy the WAR a second time from a reused one
        launches++;
        Path root = work.resolve(mode + "-root-" + stamp + "-" + launches);
        command.set(command.indexOf("--rootdir") + 1, root.toString());
        logStart = Files.exists(log) ? Files.size(log) : 0;
        launched = throughLauncher() ? List.copyOf(launcherCommand(root)) : List.copyOf(command);
        var builder = new ProcessBuilder(launched).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith("ATRIUM_"));
        builder.environment().putAll(environment);
        long started = System.nanoTime();
        process = builder.start();
        awaitHealthy();
        logReady = Files.size(log);
        System.out.printf("Atrium (%s) ready at %s after %.1f s%n", mode, baseUrl(),
                (System.nanoTime() - started) / 1e9);
    }

    /** What the latest launch logged until it answered its first health check: the start's log. */
    public String startLog() throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) logStart, (int) (logReady - logStart), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The Redis the server uses: in resilience mode this run's own. */
    public String redisUrl() {
        return resilience() ? "redis://127.0.0.1:" + redisPort + "/0" : Services.redisUrl();
    }

    /** Waits until the server process has ended by itself (the crash hook halts it); false after the timeout. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the server if it still runs, and starts it again on the same database, data and port. */
    public synchronized void restart() throws Exception {
        stopServer();
        launch();
    }

    /**
     * A second instance of the application on the same database, Redis and broker, with its own port, data
     * directory and log: what another node of a cluster sees. Started and stopped by the test that needs it.
     */
    public final class Peer implements AutoCloseable {

        private final int peerPort = freePort();
        private final Path peerLog = work.resolve(mode + "-peer-server.log");
        private Process peer;
        private int peerLaunches;

        public String baseUrl() {
            return "http://localhost:" + peerPort;
        }

        public synchronized void start() throws Exception {
            peerLaunches++;
            var peerCommand = new ArrayList<>(command);
            ownPorts(peerCommand, peerPort);
            peerCommand.set(peerCommand.indexOf("--rootdir") + 1,
                    work.resolve(mode + "-peer-root-" + stamp + "-" + peerLaunches).toString());
            var peerEnvironment = new HashMap<>(environment);
            peerEnvironment.put("ATRIUM_HTTP_PORT", Integer.toString(peerPort));
            peerEnvironment.put("ATRIUM_DATA_DIR", work.resolve(mode + "-peer-data-" + stamp).toString());
            // one object store for both, as a cluster shares its S3 bucket: the agents' bundles, files and reports
            // either instance stored (the first instance's default store, under its data directory)
            peerEnvironment.putIfAbsent("ATRIUM_OBJECT_STORE", "file:" + dataDir.resolve("objects"));
            peerEnvironment.put("ATRIUM_BASE_URL", baseUrl());
            peerEnvironment.remove("ATRIUM_TEST_CRASH_AFTER_COMMIT");
            var builder = new ProcessBuilder(peerCommand).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(peerLog.toFile()));
            builder.environment().keySet().removeIf(k -> k.startsWith("ATRIUM_"));
            builder.environment().putAll(peerEnvironment);
            peer = builder.start();
            var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.getLong("atrium.it.start-seconds", 240));
            while (System.nanoTime() < deadline) {
                if (!peer.isAlive()) {
                    throw new IllegalStateException("The peer exited; see " + peerLog);
                }
                try {
                    if (client.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/health")).GET().build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
            close();
            throw new IllegalStateException("The peer did not become healthy; see " + peerLog);
        }

        /** Stops the peer; its data stays, so {@link #start()} brings it back as a restarted node. */
        @Override
        public synchronized void close() {
            if (peer != null && peer.isAlive()) {
                peer.destroy();
                try {
                    if (!peer.waitFor(30, TimeUnit.SECONDS)) {
                        peer.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Starts the application once more with this run's configuration changed by {@code changes} (a null value drops
     * the key), on a database of its own so nothing it starts touches the run's data, and answers its log once the
     * deployment was refused. Throws when it became healthy instead, or neither within the start time.
     */
    public String refusedStart(Map<String, String> changes) throws Exception {
        String db = "atrium_it_refused_" + stamp + "_" + Integer.toHexString(
                java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        Services.createDatabase(db);
        int otherPort = freePort();
        Path otherLog = work.resolve(mode + "-refused-" + db + ".log");
        var otherCommand = new ArrayList<>(command);
        ownPorts(otherCommand, otherPort);
        otherCommand.set(otherCommand.indexOf("--rootdir") + 1, work.resolve(mode + "-root-" + db).toString());
        var otherEnvironment = new HashMap<>(environment);
        otherEnvironment.put("ATRIUM_HTTP_PORT", Integer.toString(otherPort));
        otherEnvironment.put("ATRIUM_DATA_DIR", work.resolve(mode + "-data-" + db).toString());
        otherEnvironment.put("ATRIUM_DB_URL", Services.postgresUrl(db));
        otherEnvironment.put("ATRIUM_DB_USER", Services.postgresUser());
        otherEnvironment.remove("ATRIUM_TEST_CRASH_AFTER_COMMIT");
        changes.forEach((k, v) -> {
            if (v == null) {
                otherEnvironment.remove(k);
            } else {
                otherEnvironment.put(k, v);
            }
        });
        var builder = new ProcessBuilder(otherCommand).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(otherLog.toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith("ATRIUM_"));
        builder.environment().putAll(otherEnvironment);
        Process other = builder.start();
        var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.getLong("atrium.it.start-seconds", 240));
        try {
            while (System.nanoTime() < deadline) {
                String output = Files.exists(otherLog) ? Files.readString(otherLog) : "";
                if (!other.isAlive() || output.contains("Exception while loading the app")
                        || NOTHING_DEPLOYED.matcher(output).find()) {
                    return output;
                }
                try {
                    if (client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + otherPort + "/health"))
                            .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        throw new IllegalStateException("The application started; see " + otherLog);
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
            throw new IllegalStateException("The application neither started nor was refused; see " + otherLog);
        } finally {
            other.destroy();
            if (!other.waitFor(30, TimeUnit.SECONDS)) {
                other.destroyForcibly();
            }
            Services.dropDatabase(db);
        }
    }

    /** A second instance, not yet started (resilience mode: it shares this run's own broker). */
    public Peer peer() {
        return new Peer();
    }

    /** Starts this run's own Redis server (resilience mode): no persistence, so a restart starts empty. */
    public synchronized void startRedis() throws Exception {
        redis = new ProcessBuilder(System.getProperty("atrium.it.redis-server", "/usr/bin/redis-server"),
                "--port", Integer.toString(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve(mode + "-redis.log").toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (var jedis = new Jedis(URI.create(redisUrl()))) {
                jedis.ping();
                return;
            } catch (RuntimeException notYet) {
                if (System.nanoTime() > deadline || !redis.isAlive()) {
                    throw new IllegalStateException("redis-server did not start on port " + redisPort, notYet);
                }
                Thread.sleep(100);
            }
        }
    }

    /** Kills this run's own Redis server (resilience mode). */
    public synchronized void stopRedis() throws InterruptedException {
        if (redis != null && redis.isAlive()) {
            redis.destroyForcibly();
            redis.waitFor(20, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts this run's own Artemis broker (resilience mode) in this JVM on a TCP port, with the application's
     * address settings and a persistent journal under the data directory, so queued messages survive a stop.
     */
    public synchronized void startBroker() throws Exception {
        broker = new org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ().setConfiguration(
                dev.atrium.platform.messaging.BrokerConnection.brokerConfiguration(dataDir.resolve("test-broker"))
                        .addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + brokerPort));
        broker.start();
    }

    public synchronized void stopBroker() throws Exception {
        if (broker != null) {
            broker.stop();
            broker = null;
        }
    }

    private void stopServer() {
        if (process != null && process.isAlive()) {
            peakMemory(process.pid());
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Prints the server's highest resident set size so far (the kernel's VmHWM): the memory a run really took. */
    private void peakMemory(long pid) {
        try {
            Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(line -> line.startsWith("VmHWM:") || line.startsWith("VmRSS:"))
                    .forEach(line -> System.out.printf("Atrium (%s) %s%n", mode, line.replaceAll("\\s+", " ")));
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process just ended: nothing to report
        }
    }

    private void awaitHealthy() throws Exception {
        var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        // a machine shared with other builds may need longer to deploy: -Datrium.it.start-seconds
        long deadline = System.nanoTime()
                + TimeUnit.SECONDS.toNanos(Long.getLong("atrium.it.start-seconds", 240));
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Payara Micro exited; see " + log + "\n" + tail());
            }
            String output = Files.exists(log) ? Files.readString(log).substring((int) logStart) : "";
            if (output.contains("Exception while loading the app") || NOTHING_DEPLOYED.matcher(output).find()) {
                close();
                throw new IllegalStateException("The WAR failed to deploy; see " + log + "\n" + tail());
            }
            // Payara Micro logs a failed command of atrium.asadmin as a warning and boots anyway
            if (output.contains("Boot Command") && BOOT_COMMAND_FAILED.matcher(output).find()) {
                close();
                throw new IllegalStateException("A command of server-config/payara/atrium.asadmin or "
                        + "micro-envelope.asadmin failed; see " + log + "\n" + tail());
            }
            try {
                var response = client.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/health")).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        close();
        throw new IllegalStateException("Atrium did not become healthy; see " + log + "\n" + tail());
    }

    private String tail() {
        try {
            var lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() {
        stopServer();
        try {
            stopBroker();
            stopRedis();
        } catch (Exception e) {
            System.err.println("Could not stop the test's Redis or broker: " + e);
        }
        if (smtp != null) {
            smtp.stop();
        }
        if (oauth != null) {
            oauth.shutdown();
        }
        if (stripe != null) {
            stripe.stop();
        }
        if (otlp != null) {
            otlp.close();
        }
        if (database != null) {
            try {
                Services.dropDatabase(database);
            } catch (SQLException e) {
                System.err.println("Could not drop " + database + ": " + e.getMessage());
            }
        }
    }

    // ---- External login (OAuth 2.0 / OpenID Connect): a real provider for the OAuth*IT tests, services mode ----

    /** Provider names as Atrium knows them; each is an issuer of its own on the one mock server. */
    public static final String OAUTH_PROVIDER = "mock";
    public static final String OAUTH_SECOND_PROVIDER = "mock-b";
    /** The OAuth 2.0 server's issuer that gives the model gateway's client-credentials tokens, and the client. */
    public static final String LLM_GATEWAY = "llm-gateway";
    public static final String LLM_CLIENT_ID = "atrium-llm";
    public static final String OAUTH_CLIENT_ID = "atrium-it";

    /** The OAuth 2.0 / OIDC server the platform is configured with (services mode; null when embedded). */
    public MockOAuth2Server oauth() {
        return oauth;
    }

    /**
     * Starts mock-oauth2-server before Payara, and configures two providers on it through the environment as an
     * operator would: {@code mock} by OIDC discovery with client_secret_basic (the default), {@code mock-b} (whose
     * variables spell the hyphen as an underscore) with client_secret_post, {@code plain} with explicit endpoints
     * and no issuer, and {@code down}, whose endpoints nobody answers.
     */
    private void startOAuthProviders(Map<String, String> env) {
        oauth = new MockOAuth2Server();
        oauth.start(freePort());
        env.put("ATRIUM_OAUTH_MOCK_CLIENT_ID", OAUTH_CLIENT_ID);
        env.put("ATRIUM_OAUTH_MOCK_CLIENT_SECRET", "atrium-it-secret");
        env.put("ATRIUM_OAUTH_MOCK_ISSUER", oauth.issuerUrl(OAUTH_PROVIDER).toString());
        env.put("ATRIUM_OAUTH_MOCK_B_CLIENT_ID", OAUTH_CLIENT_ID);
        env.put("ATRIUM_OAUTH_MOCK_B_CLIENT_SECRET", "atrium-it-secret-b");
        env.put("ATRIUM_OAUTH_MOCK_B_ISSUER", oauth.issuerUrl(OAUTH_SECOND_PROVIDER).toString());
        env.put("ATRIUM_OAUTH_MOCK_B_CLIENT_AUTH_METHOD", "client_secret_post");
        // a plain OAuth 2.0 provider: explicit endpoints and no issuer, so the user is read from userinfo
        env.put("ATRIUM_OAUTH_PLAIN_CLIENT_ID", OAUTH_CLIENT_ID);
        env.put("ATRIUM_OAUTH_PLAIN_CLIENT_SECRET", "atrium-it-secret-plain");
        env.put("ATRIUM_OAUTH_PLAIN_AUTHORIZATION_ENDPOINT", oauth.authorizationEndpointUrl("plain").toString());
        env.put("ATRIUM_OAUTH_PLAIN_TOKEN_ENDPOINT", oauth.tokenEndpointUrl("plain").toString());
        env.put("ATRIUM_OAUTH_PLAIN_USERINFO_ENDPOINT", oauth.userInfoUrl("plain").toString());
        // a provider whose token endpoint nobody answers
        String nowhere = "http://127.0.0.1:" + freePort();
        env.put("ATRIUM_OAUTH_DOWN_CLIENT_ID", OAUTH_CLIENT_ID);
        env.put("ATRIUM_OAUTH_DOWN_CLIENT_SECRET", "atrium-it-secret-down");
        env.put("ATRIUM_OAUTH_DOWN_AUTHORIZATION_ENDPOINT", nowhere + "/authorize");
        env.put("ATRIUM_OAUTH_DOWN_TOKEN_ENDPOINT", nowhere + "/token");
        env.put("ATRIUM_OAUTH_DOWN_USERINFO_ENDPOINT", nowhere + "/userinfo");
        // the model provider behind a gateway: a client-credentials token from this server instead of an API key
        env.put("ATRIUM_LLM_TOKEN_URL", oauth.tokenEndpointUrl(LLM_GATEWAY).toString());
        env.put("ATRIUM_LLM_CLIENT_ID", LLM_CLIENT_ID);
        env.put("ATRIUM_LLM_CLIENT_SECRET", "atrium-it-llm-secret");
        env.put("ATRIUM_LLM_SCOPE", "models");
        TestModelServer.requireTokens(oauth.jwksUrl(LLM_GATEWAY).uri(), LLM_CLIENT_ID);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the test run finds PostgreSQL and Redis: the local services, overridable by system properties. */
    public static final class Services {

        private Services() {
        }

        public static String postgresUser() {
            return System.getProperty("atrium.it.pg.user", "postgres");
        }

        static String postgresUrl(String db) {
            return System.getProperty("atrium.it.pg.url", "jdbc:postgresql://127.0.0.1:5432/") + db;
        }

        static String redisUrl() {
            return System.getProperty("atrium.it.redis.url", "redis://127.0.0.1:6379/13");
        }

        static void createDatabase(String db) throws SQLException {
            try (var c = DriverManager.getConnection(postgresUrl("postgres"), postgresUser(), "");
                 var s = c.createStatement()) {
                s.execute("CREATE DATABASE " + db);
            }
        }

        static void dropDatabase(String db) throws SQLException {
            try (var c = DriverManager.getConnection(postgresUrl("postgres"), postgresUser(), "");
                 var s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
            }
        }
    }
}
