package dev.atrium.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.atrium.sandbox.BubblewrapExecutor;
import dev.atrium.sandbox.SandboxRefused;

/**
 * {@code agent dev}'s local marketplace: the agent in one directory behind the server's invoke path,
 * {@code POST /v1/agents/{name}/invoke}, on the JDK's HTTP server (no application server, so it starts at once).
 * Each call runs in the sandbox the server uses with the limits and input checks of the gateway, and answers as the
 * gateway does: the output or {@code {"error": …}} with the {@code Atrium-*} headers, 422 with {@code valid: false},
 * 400 for malformed JSON or nesting past 64 levels, 413 past 1 MiB, 503 with {@code Retry-After} when every slot
 * is busy. Nothing is authenticated, metered or charged ({@code Atrium-Price-Usd} is 0), so it listens on loopback
 * unless told otherwise.
 * <p>
 * The directory is watched (its bundle's fingerprint, four times a second, and again before every call): a change
 * reloads the card and re-packs the bundle, so the next call runs what is on disk. A card that cannot run is
 * reported on the terminal and answered 503 until it is fixed.
 */
final class DevServer implements AutoCloseable {

    static final int MAX_BODY_BYTES = 1024 * 1024;
    static final int MAX_DEPTH = 64;
    private static final long SLOT_WAIT_SECONDS = 5;
    private static final Pattern INVOKE = Pattern.compile("^/v1/agents/([^/]+)/invoke/?$");

    private static final ObjectMapper BODIES = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /** The agent as last loaded, or why it cannot run; {@code fingerprint} is the directory's at that moment. */
    private record State(LocalAgent agent, String problem, String fingerprint) {
    }

    private final Path dir;
    /** The image archive the agent runs from, or null for the directory's bundle. */
    private final Path image;
    private final Path work;
    private final PrintWriter log;
    private final BubblewrapExecutor executor;
    private final HttpServer http;
    private final ExecutorService handlers;
    private final ScheduledExecutorService watcher;
    private final Semaphore slots;
    private final AtomicInteger generation = new AtomicInteger();
    private final AtomicLong runs = new AtomicLong();
    private volatile State state;

    private DevServer(Path dir, Path image, Path work, PrintWriter log, BubblewrapExecutor executor,
                      HttpServer http) {
        this.dir = dir;
        this.image = image;
        this.work = work;
        this.log = log;
        this.executor = executor;
        this.http = http;
        int cores = Runtime.getRuntime().availableProcessors();
        this.slots = new Semaphore(2 * cores, true);
        this.handlers = Executors.newFixedThreadPool(4 * cores + 2, daemon("agent-dev-http"));
        this.watcher = Executors.newSingleThreadScheduledExecutor(daemon("agent-dev-watch"));
    }

    /**
     * Loads the agent in {@code dir} and listens on {@code address}. The agent must load the first time (a
     * {@link CliException} says why not); later a broken card only makes calls answer 503 until it is fixed.
     */
    static DevServer start(Path dir, InetSocketAddress address, PrintWriter log) throws IOException {
        return start(dir, null, address, log);
    }

    /** As {@link #start(Path, InetSocketAddress, PrintWriter)}, the agent being the image archive when given. */
    static DevServer start(Path dir, Path image, InetSocketAddress address, PrintWriter log) throws IOException {
        Path work = LocalAgent.workDirectory("atrium-agent-dev");
        try {
            // probing the sandbox and reading the card (Jackson's first use) each take ~0.1 s: side by side
            var probe = CompletableFuture.supplyAsync(() -> LocalAgent.sandbox(
                    work.resolve("sandbox")));
            var first = LocalAgent.load(dir, work.resolve("agent-0"), image);
            BubblewrapExecutor executor;
            try {
                executor = probe.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            HttpServer http;
            try {
                http = HttpServer.create(address, 64);
            } catch (BindException e) {
                throw CliException.user("Cannot listen on " + address.getHostString() + ":" + address.getPort()
                        + " (" + e.getMessage() + "): is another agent dev running? Choose one with --port");
            }
            var server = new DevServer(dir, image, work, log, executor, http);
            server.state = server.load(first);
            http.createContext("/", server::handle);
            http.setExecutor(server.handlers);
            http.start();
            // the schema validator loads while the first caller connects, not before the port opens
            server.handlers.execute(() -> first.inputProblems(Output.JSON.createObjectNode()));
            server.watcher.scheduleWithFixedDelay(server::reloadQuietly, 250, 250, TimeUnit.MILLISECONDS);
            return server;
        } catch (IOException | RuntimeException e) {
            TestCommand.deleteTree(work);
            throw e;
        }
    }

    int port() {
        return http.getAddress().getPort();
    }

    LocalAgent agent() {
        return state.agent();
    }

    @Override
    public void close() {
        watcher.shutdownNow();
        http.stop(0);
        handlers.shutdownNow();
        TestCommand.deleteTree(work);
    }

    private State load(LocalAgent agent) {
        return new State(agent, null, agent.fingerprint());
    }

    private Path nextDirectory() {
        return work.resolve("agent-" + generation.incrementAndGet());
    }

    /** Reloads when the directory changed; says so on the terminal, once per change. */
    synchronized void reload() {
        String now;
        try {
            now = LocalAgent.fingerprint(dir, image);
        } catch (IOException | RuntimeException e) {
            now = "unreadable: " + e.getMessage();
        }
        if (now.equals(state.fingerprint())) {
            return;
        }
        State before = state;
        try {
            var agent = LocalAgent.load(dir, nextDirectory(), image);
            state = load(agent);
            log.println("reloaded " + Output.safe(agent.name()) + " " + Output.safe(agent.version()));
        } catch (IOException | RuntimeException e) {
            state = new State(before.agent(), "The agent in " + dir + " cannot run: " + e.getMessage(), now);
            log.println("cannot reload: " + Output.safe(e.getMessage()) + " (calls answer 503 until it is fixed)");
        }
        // older bundles stay until close: a run that started before the change may still read them
    }

    private void reloadQuietly() {
        try {
            reload();
        } catch (RuntimeException e) {
            log.println("watching " + dir + " failed: " + Output.safe(e.getMessage()));
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            var invoke = INVOKE.matcher(path);
            if (!invoke.matches()) {
                send(exchange, 404, error(40400, "Not found: agent dev serves POST /v1/agents/{name}/invoke only",
                        null), null);
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "POST");
                send(exchange, 405, error(40500, "Method not allowed: use POST", null), null);
                return;
            }
            invoke(exchange, URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            log.println("internal error: " + Output.safe(String.valueOf(e)));
            try {
                send(exchange, 500, error(50000, "Internal error in agent dev", null), null);
            } catch (IOException | RuntimeException ignored) {
                // the answer could not be written: the client has gone
            }
        }
    }

    private void invoke(HttpExchange exchange, String name) throws IOException {
        reload();
        State current = state;
        if (!name.equals(current.agent().name())) {
            send(exchange, 404, error(40400, "Agent not found: agent dev serves "
                    + current.agent().name() + " only", null), name);
            return;
        }
        if (current.problem() != null) {
            send(exchange, 503, error(50300, "The agent cannot run until its directory is fixed",
                    current.problem()), name);
            return;
        }
        LocalAgent agent = current.agent();
        String version = query(exchange, "version");
        if (version != null && !pinned(version, agent.version())) {
            send(exchange, 404, error(40400, "No version of major " + version + " here: this is "
                    + agent.version(), null), name);
            return;
        }
        JsonNode input;
        try (InputStream body = exchange.getRequestBody()) {
            byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                send(exchange, 413, error(41300, "The request body is larger than 1 MiB", null), name);
                return;
            }
            input = bytes.length == 0 ? null : BODIES.readTree(bytes);
            if (input == null) {
                throw new JsonParseException(null, "empty body");
            }
        } catch (JsonProcessingException e) {
            send(exchange, 400, error(40000, "Malformed JSON", "The body is not valid JSON of the expected shape, "
                    + "or nests deeper than " + MAX_DEPTH + " levels"), name);
            return;
        }
        var problems = agent.inputProblems(input);
        if (!problems.isEmpty()) {
            var rejected = error(40001, "The input does not match the agent's input_schema", details(problems));
            rejected.put("valid", false);
            send(exchange, 422, rejected, name);
            return;
        }
        boolean slot;
        try {
            slot = slots.tryAcquire(SLOT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            slot = false;
        }
        if (!slot) {
            exchange.getResponseHeaders().set("Retry-After", "1");
            send(exchange, 503, error(50300, "Every sandbox slot is busy: retry shortly", null), name);
            return;
        }
        LocalAgent.Run run;
        try {
            run = agent.run(executor, input);
        } catch (SandboxRefused e) {
            send(exchange, 503, error(50300, "The sandbox refused the run", e.getMessage()), name);
            return;
        } finally {
            slots.release();
        }
        var headers = exchange.getResponseHeaders();
        headers.set("Atrium-Run-Id", "local-" + runs.incrementAndGet());
        headers.set("Atrium-Agent-Version", agent.version());
        headers.set("Atrium-Run-Status", run.status().value());
        headers.set("Atrium-Duration-Ms", Long.toString(run.result().wallTime().toMillis()));
        headers.set("Atrium-Tokens-Input", Long.toString(run.tokens("tokens_input")));
        headers.set("Atrium-Tokens-Output", Long.toString(run.tokens("tokens_output")));
        headers.set("Atrium-Price-Usd", "0.000000");
        JsonNode answer = run.succeeded() ? run.output() : Output.JSON.createObjectNode().put("error", run.error());
        var notes = new ArrayList<String>();
        run.result().stderrText().lines().limit(50).forEach(line -> notes.add("  | " + Output.safe(line)));
        if (run.succeeded()) {
            agent.outputProblems(run.output()).stream().limit(5)
                    .forEach(p -> notes.add("  ! output breaks output_schema: " + Output.safe(p)));
        }
        send(exchange, 200, answer, name, notes);
    }

    /** The gateway's {@code error.details} of a refused input: the first problems, joined, at most 2000 characters. */
    static String details(List<String> problems) {
        String text = String.join("; ", problems.stream().limit(LocalAgent.PROBLEMS_SHOWN).toList());
        String more = problems.size() > LocalAgent.PROBLEMS_SHOWN
                ? "; and " + (problems.size() - LocalAgent.PROBLEMS_SHOWN) + " more" : "";
        int room = 2000 - more.length();
        return (text.length() <= room ? text : text.substring(0, room - 1) + "…") + more;
    }

    private static boolean pinned(String version, String agentVersion) {
        String major = version.startsWith("v") ? version.substring(1) : version;
        int dot = agentVersion.indexOf('.');
        return major.matches("\\d{1,9}") && agentVersion.substring(0, dot < 0 ? agentVersion.length() : dot)
                .equals(Integer.toString(Integer.parseInt(major)));
    }

    private static String query(HttpExchange exchange, String name) {
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw == null) {
            return null;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (key.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static ObjectNode error(int code, String message, String details) {
        var envelope = Output.JSON.createObjectNode();
        envelope.putObject("error").put("code", code).put("message", message).put("details", details);
        return envelope;
    }

    private void send(HttpExchange exchange, int status, JsonNode body, String agent) throws IOException {
        send(exchange, status, body, agent, List.of());
    }

    /** Logs the call and its {@code notes}, then answers. */
    private void send(HttpExchange exchange, int status, JsonNode body, String agent, List<String> notes)
            throws IOException {
        byte[] bytes = Output.JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        String runStatus = exchange.getResponseHeaders().getFirst("Atrium-Run-Status");
        // logged before the body goes out: a caller that has the answer finds its line in the log
        log.println(exchange.getRequestMethod() + " " + Output.safe(exchange.getRequestURI().getRawPath()) + " → "
                + status + (runStatus == null ? "" : " " + runStatus + " "
                + exchange.getResponseHeaders().getFirst("Atrium-Duration-Ms") + " ms")
                + (agent == null || status == 200 ? "" : "  " + Output.safe(body.path("error").path("message")
                .asText())));
        notes.forEach(log::println);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static ThreadFactory daemon(String name) {
        var count = new AtomicInteger();
        return runnable -> {
            var thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
