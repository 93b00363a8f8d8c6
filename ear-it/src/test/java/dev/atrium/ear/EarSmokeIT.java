package dev.atrium.ear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The EAR on a real Payara Server domain, as an operator starts it: {@code scripts/run-server} creates the domain,
 * applies {@code server-config/payara}, points the server's pool at a fresh PostgreSQL database and deploys
 * {@code ear/target/atrium.ear}. A smoke subset then goes through it: login, an article, a chat, a task through
 * JMS, a batch job execution (its repository in the same database, through the server's pool), an agent search.
 */
class EarSmokeIT {

    private static final String ADMIN_EMAIL = "admin@atrium.test";
    private static final String ADMIN_PASSWORD = "Admin-Passw0rd";
    private static final String SSO_REDIRECT = "https://portal.atrium.test/after-login";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path WORK = Path.of(System.getProperty("atrium.it.work", "target/it")).toAbsolutePath();
    private static final String PG = System.getProperty("atrium.it.pg.url", "jdbc:postgresql://127.0.0.1:5432/");

    private static Map<String, String> environment;
    private static String database;
    private static String baseUrl;
    private static String httpsUrl;
    private static String token;

    @BeforeAll
    static void startPayaraServer() throws Exception {
        database = "atrium_ear_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (var c = DriverManager.getConnection(PG + "postgres", "postgres", "")) {
            c.createStatement().execute("create database " + database);
        }
        int http = freePort();
        baseUrl = "http://localhost:" + http;
        int https = freePort();
        httpsUrl = "https://localhost:" + https;
        Files.createDirectories(WORK);
        var settings = new java.util.HashMap<>(Map.of(
                "ATRIUM_DATA_DIR", WORK.resolve("data-" + database).toString(),
                "ATRIUM_HTTP_PORT", Integer.toString(http),
                "ATRIUM_HTTPS_PORT", Integer.toString(https),
                "ATRIUM_SERVER_ADMIN_PORT", Integer.toString(freePort()),
                "ATRIUM_SERVER_ADMIN_PASSWORD", "Ops-" + UUID.randomUUID(),
                "ATRIUM_DB_URL", PG + database,
                "ATRIUM_DB_USER", "postgres",
                "ATRIUM_ADMIN_EMAIL", ADMIN_EMAIL,
                "ATRIUM_ADMIN_PASSWORD", ADMIN_PASSWORD,
                "ATRIUM_SSO_ALLOWED_REDIRECTS", SSO_REDIRECT));
        // an external database needs a payment processor named; the smoke test takes no payments
        settings.put("ATRIUM_BILLING_PROCESSOR", "webhook");
        // nothing listens there: every mail fails (whenAMailCannotBeSent...)
        settings.put("ATRIUM_SMTP_HOST", "127.0.0.1");
        settings.put("ATRIUM_SMTP_PORT", Integer.toString(freePort()));
        environment = Map.copyOf(settings);
        long started = System.nanoTime();
        // creating, configuring and starting the domain and deploying: 6 min, or longer on a machine shared with
        // another suite (-Datrium.it.start-seconds, as the Payara Micro suites take it)
        int exit = runServer("start", Duration.ofSeconds(Math.max(360, Long.getLong("atrium.it.start-seconds", 0))));
        assertThat(exit).as("scripts/run-server; see " + WORK.resolve("run-server.log")).isZero();
        System.out.printf("Payara Server: domain created, configured, started and the EAR deployed in %.1f s%n",
                (System.nanoTime() - started) / 1e9);
        var login = send("POST", "/login", Map.of("email", ADMIN_EMAIL, "password", ADMIN_PASSWORD), null);
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        token = JSON.readTree(login.body()).get("access_token").asText();
    }

    @AfterAll
    static void stopPayaraServer() throws Exception {
        if (environment != null) {
            runServer("stop", Duration.ofMinutes(2));
        }
        if (database != null) {
            try (var c = DriverManager.getConnection(PG + "postgres", "postgres", "")) {
                c.createStatement().execute("drop database if exists " + database + " with (force)");
            }
        }
    }

    private static int runServer(String action, Duration timeout) throws Exception {
        var builder = new ProcessBuilder(ROOT.resolve("scripts/run-server").toString(), action)
                .directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(WORK.resolve("run-server.log").toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith("ATRIUM_"));
        builder.environment().putAll(environment);
        var process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static HttpResponse<String> send(String method, String path, Object body, String bearer)
            throws Exception {
        var request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(HttpResponse<String> response, int status) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    /** Polls a resource until {@code done} holds: the work goes through the broker or the batch runtime. */
    private static JsonNode await(String path, Predicate<JsonNode> done) throws Exception {
        return await(path, done, Duration.ofMillis(250));
    }

    /** As {@link #await(String, Predicate)}, asking every {@code every} (the caller's rate limit is 100 a minute). */
    private static JsonNode await(String path, Predicate<JsonNode> done, Duration every) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = ok(send("GET", path, null, token), 200);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(every.toMillis());
        }
        throw new AssertionError("Not done in 90 s: " + path + " " + last);
    }

    @Test
    void whenTheEarRunsOnPayaraServerThenHealthNamesTheServersPostgresqlPool() throws Exception {
        var health = ok(send("GET", "/health", null, null), 200);

        assertThat(health.get("database").asText()).isEqualTo("ok");
        assertThat(health.at("/backends/database").asText()).isEqualTo("postgresql");
    }

    @Test
    void whenTheHttpParserRefusesAHeaderThenTheServerAnswersInTheEnvelope() throws Exception {
        // grizzly-envelope on the server's listener (server-domain.asadmin), as on Payara Micro's (ContainerErrorsIT);
        // every other call here goes through the same listener with the JDK client's h2c offer
        URI base = URI.create(baseUrl);
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer caf\u00e9\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 400 ").contains("Content-Type: application/json")
                    .endsWith("\r\n\r\n{\"error\":{\"code\":40000,\"details\":null,\"doc_url\":null,"
                            + "\"message\":\"Malformed request\"}}");
        }
    }

    @Test
    void whenTheHttpParserRefusesAHeaderOverTlsThenTheServerAnswersInTheEnvelopeAndH2StaysOnAlpn() throws Exception {
        // the HTTPS listener http-listener-2 goes through the envelope too (server-domain.asadmin), on the domain's
        // own self-signed key
        URI base = URI.create(httpsUrl);
        try (var socket = trustAll().getSocketFactory().createSocket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /api/v1/me HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer caf\u00e9\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            var answer = new java.io.ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(answer);
            } catch (IOException closed) {
                // TLS's end without its close_notify, after the answer
            }
            assertThat(answer.toString(StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 400 ")
                    .contains("Content-Type: application/json")
                    .endsWith("\r\n\r\n{\"error\":{\"code\":40000,\"details\":null,\"doc_url\":null,"
                            + "\"message\":\"Malformed request\"}}");
        }
        var client = HttpClient.newBuilder().sslContext(trustAll()).connectTimeout(Duration.ofSeconds(5)).build();
        var health = client.send(HttpRequest.newBuilder(URI.create(httpsUrl + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.version()).isEqualTo(HttpClient.Version.HTTP_2);
    }

    /**
     * The domain's self-signed key, trusted as it is: an extended trust manager, so that its name (the machine's, not
     * localhost) is not checked either.
     */
    private static javax.net.ssl.SSLContext trustAll() throws Exception {
        var trust = new javax.net.ssl.X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
                // trusted
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
                // trusted
            }

            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType,
                    java.net.Socket socket) {
                // trusted
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType,
                    java.net.Socket socket) {
                // trusted
            }

            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType,
                    javax.net.ssl.SSLEngine engine) {
                // trusted
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType,
                    javax.net.ssl.SSLEngine engine) {
                // trusted
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        };
        var context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, new javax.net.ssl.TrustManager[] {trust}, null);
        return context;
    }

    @Test
    void whenAnArticleIsWrittenThenItIsReadBack() throws Exception {
        var created = ok(send("POST", "/api/v1/articles", Map.of("title", "Deployed as an EAR",
                "body", "On Payara Server with the server's connection pool."), token), 201);

        var read = ok(send("GET", "/api/v1/articles/" + created.get("id").asText(), null, token), 200);
        assertThat(read.get("title").asText()).isEqualTo("Deployed as an EAR");
    }

    @Test
    void whenChattingThenTheModelAnswers() throws Exception {
        var answer = ok(send("POST", "/api/chat/completions", Map.of("message", "hello from the EAR"), token), 200);

        assertThat(answer.get("content").asText()).isEqualTo("Echo: hello from the EAR");
    }

    @Test
    void whenAnAnswerIsStreamedThenItRunsOnTheExecutorTheServerManages() throws Exception {
        var request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/chat/stream")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                        Map.of("message", "streamed from the EAR", "model", "echo")))).build();
        var stream = HTTP.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
        assertThat(stream.body()).contains("\"content\":\"streamed \"", "\"type\":\"done\"");
        assertThat(asadmin("list-managed-thread-factories")).contains("concurrent/atrium-streams",
                "concurrent/atrium-workers");
    }

    @Test
    void whenTheAdminPortIsAskedOverPlainHttpThenItSendsTheClientToTls() throws Exception {
        var answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:"
                + environment.get("ATRIUM_SERVER_ADMIN_PORT") + "/")).GET().build(),
                HttpResponse.BodyHandlers.discarding());

        assertThat(answer.statusCode()).isEqualTo(302);
        assertThat(answer.headers().firstValue("Location").orElseThrow()).startsWith("https://");
    }

    @Test
    void whenAnAdministratorPausesASchedulesInTheDomainsConfigThenTheRunningApplicationHoldsItBack()
            throws Exception {
        assertThat(asadmin("set-config-property", "--source=domain", "--propertyName=atrium.batch.schedules.paused",
                "--propertyValue=monthly-payout")).contains("executed successfully");
        try {
            var jobs = await("/admin/batch-jobs", j -> paused(j, "monthly-payout"));
            assertThat(paused(jobs, "daily-usage-report")).isFalse();
        } finally {
            asadmin("delete-config-property", "--source=domain", "--propertyName=atrium.batch.schedules.paused");
        }
        await("/admin/batch-jobs", j -> !paused(j, "monthly-payout"));
    }

    private static boolean paused(JsonNode jobs, String name) {
        for (var job : jobs.get("data")) {
            if (job.get("name").asText().equals(name)) {
                return job.get("schedule_paused").asBoolean();
            }
        }
        throw new AssertionError(name + " not in " + jobs);
    }

    /** asadmin of the unpacked server against the test's domain, over secure admin with the operator's password. */
    private static String asadmin(String... command) throws Exception {
        Path passwords = Files.createTempFile(WORK, "asadmin", ".txt");
        try {
            Files.writeString(passwords, "AS_ADMIN_PASSWORD=" + environment.get("ATRIUM_SERVER_ADMIN_PASSWORD"));
            var arguments = new java.util.ArrayList<>(List.of(ROOT.resolve("ear/target/payara6/bin/asadmin")
                    .toString(), "--user", "admin", "--passwordfile", passwords.toString(), "--port",
                    environment.get("ATRIUM_SERVER_ADMIN_PORT"), "--interactive=false"));
            arguments.addAll(List.of(command));
            var process = new ProcessBuilder(arguments).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
            return out;
        } finally {
            Files.deleteIfExists(passwords);
        }
    }

    @Test
    void whenTheReportsModuleIsCalledWithAnSsoTokenThenMicroProfileJwtLetsTheAdministratorIn() throws Exception {
        var sso = ok(send("POST", "/sso/login", Map.of("email", ADMIN_EMAIL, "password", ADMIN_PASSWORD,
                "redirect_url", SSO_REDIRECT), null), 200);

        var me = ok(send("GET", "/reports/me", null, sso.get("token").asText()), 200);
        assertThat(me.get("groups").toString()).contains("\"admin\"");
        ok(send("GET", "/reports/platform", null, sso.get("token").asText()), 200);
        var anonymous = send("GET", "/reports/me", null, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        // the container's refusal in the portal's envelope on Payara Server too
        assertThat(anonymous.body()).as(anonymous.body()).contains("\"code\":\"unauthorized\"");
        assertThat(send("GET", "/reports/me", null, token).statusCode()).as("Atrium's HS256 access token")
                .isEqualTo(401);
    }

    @Test
    void whenATaskIsSubmittedThenTheServersMessageDrivenBeanCompletesIt() throws Exception {
        var accepted = ok(send("POST", "/api/tasks/submit", Map.of("prompt", "one line, please"), token), 202);

        var task = await("/api/tasks/" + accepted.get("task_id").asText(),
                t -> !List.of("submitted", "running").contains(t.get("status").asText()));
        assertThat(task.get("status").asText()).as(task.toString()).isEqualTo("success");
        assertThat(task.at("/result/content").asText()).isEqualTo("Echo: one line, please");
        // sent through the resource adapter's connection factory, consumed by TasksListener: the application
        // starts none of its own consumers on this runtime
        assertThat(serverLog()).contains("Messaging through the server's connection factory java:app/jms/atrium")
                .contains("AMQ151007").doesNotContain("Consuming queue tasks");
    }

    @Test
    void whenAMailCannotBeSentThenTheServersBeanRollsItBackUntilTheBrokerDeadLettersIt() throws Exception {
        // SMTP points at a closed port: the mail handler throws on each delivery, MailListener rolls the delivery
        // back, the broker delivers it twice more 5 s apart and then moves it to DLQ, browsed through the adapter
        var email = "dead-letter-" + UUID.randomUUID().toString().substring(0, 8) + "@atrium.test";
        ok(send("POST", "/register", Map.of("email", email, "username", "deadletter",
                "password", "Passw0rdOK-" + UUID.randomUUID()), null), 200);

        var operations = await("/admin/operations", o -> depth(o, "DLQ") >= 1, Duration.ofSeconds(2));
        assertThat(operations.get("broker_connected").asBoolean()).isTrue();
        assertThat(depth(operations, "mail")).isZero();
        assertThat(serverLog()).contains("Handler of mail failed on delivery 1", "Handler of mail failed on delivery 3");
    }

    private static long depth(JsonNode operations, String queue) {
        for (var q : operations.get("queues")) {
            if (q.get("name").asText().equals(queue) && q.hasNonNull("depth")) {
                return q.get("depth").asLong();
            }
        }
        return -1;
    }

    private static String serverLog() throws IOException {
        return Files.readString(Path.of(environment.get("ATRIUM_DATA_DIR"), "payara-server", "atrium", "logs",
                "server.log"));
    }

    @Test
    void whenABatchJobIsStartedThenTheServersBatchRuntimeCompletesIt() throws Exception {
        var started = ok(send("POST", "/admin/batch-jobs/daily-usage-report/executions", null, token), 202);

        var execution = await(started.get("href").asText(),
                e -> List.of("COMPLETED", "FAILED", "STOPPED", "ABANDONED").contains(e.get("status").asText()));
        assertThat(execution.get("status").asText()).as(execution.toString()).isEqualTo("COMPLETED");
        try (var c = DriverManager.getConnection(PG + database, "postgres", "");
             var s = c.prepareStatement("select batchstatus from jbatchexecutioninstancedata where jobexecid = ?")) {
            s.setLong(1, started.get("id").asLong());
            try (var rows = s.executeQuery()) {
                assertThat(rows.next()).as("the execution in the application's database").isTrue();
                assertThat(rows.getString(1)).isEqualTo("COMPLETED");
            }
        }
    }

    @Test
    void whenAgentsAreSearchedThenTheQueryIsEmbeddedAndAnswered() throws Exception {
        var result = ok(send("GET", "/v1/agents/search?q=" + URLEncoder.encode("summarise a contract",
                StandardCharsets.UTF_8) + "&limit=3", null, null), 200);

        assertThat(result.get("agents").isArray()).as(result.toString()).isTrue();
    }

    @Test
    void whenAnOperatorSignsInToTheConsoleThenItsSessionReachesTheAdminApi() throws Exception {
        var page = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/console")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).startsWith("default-src 'none'");

        var signIn = send("POST", "/console/session", Map.of("email", ADMIN_EMAIL, "password", ADMIN_PASSWORD), null);
        assertThat(signIn.statusCode()).as(signIn.body()).isEqualTo(200);
        String cookie = signIn.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
        var jobs = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/admin/batch-jobs")).header("Cookie", cookie)
                .GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(jobs.statusCode()).as(jobs.body()).isEqualTo(200);
        assertThat(JSON.readTree(jobs.body()).get("data").size()).isEqualTo(5);
    }
}
