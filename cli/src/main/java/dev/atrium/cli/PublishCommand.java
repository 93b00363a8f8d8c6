package dev.atrium.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import dev.atrium.sdk.AtriumException;

@Command(name = "publish", mixinStandardHelpOptions = true,
        description = {"Validate agent.json against the card schema the server serves, pack the directory (without "
                + "what .agentignore names) and submit it for review.",
                "Every error is printed with its JSON pointer; --wait follows the review until it is decided."})
final class PublishCommand implements Callable<Integer> {

    static final long MAX_BUNDLE_BYTES = 20L * 1024 * 1024;
    /** The server's default cap of an image archive (atrium.marketplace.image.max-bytes). */
    static final long MAX_IMAGE_BYTES = 200L * 1024 * 1024;
    private static final int CHUNK = 16 * 1024;

    @ParentCommand
    AgentCli root;

    @Option(names = {"-C", "--directory"}, defaultValue = ".", paramLabel = "DIR",
            description = "The agent's directory (default: the current one).")
    Path dir;

    @Option(names = "--image", paramLabel = "ARCHIVE",
            description = "Submit this image archive (docker save -o, or skopeo copy ... oci-archive:) instead of "
                    + "packing the directory; agent.json stays the card.")
    Path image;

    @Option(names = "--wait", description = "Wait until the submission is reviewed; exit 1 when rejected.")
    boolean await;

    @Option(names = "--wait-timeout", defaultValue = "PT30M", paramLabel = "DURATION",
            description = "How long --wait waits, ISO-8601 (default PT30M).")
    Duration waitTimeout;

    @Option(names = "--poll", defaultValue = "PT5S", hidden = true)
    Duration poll;

    @Override
    public Integer call() throws Exception {
        var env = root.env;
        Path cardFile = dir.resolve("agent.json");
        String cardText;
        try {
            cardText = Files.readString(cardFile);
        } catch (NoSuchFileException e) {
            throw CliException.user("No agent.json in " + dir.toAbsolutePath().normalize()
                    + ": run agent init, or -C the agent's directory");
        }
        JsonNode card;
        try {
            card = Output.JSON.readTree(cardText);
        } catch (JsonProcessingException e) {
            throw CliException.user("agent.json is not JSON: " + Output.safe(e.getOriginalMessage()));
        }
        var client = root.client(true);
        var problems = validate(client.get("v1/schemas/agent-card"), card);
        if (!problems.isEmpty()) {
            return rejected(problems, "agent.json does not match the card schema; nothing was uploaded");
        }
        BundlePacker.Bundle bundle;
        if (image != null) {
            LocalAgent.checkImage(image);
            bundle = new BundlePacker.Bundle(Files.readAllBytes(image), List.of(), List.of());
        } else {
            bundle = BundlePacker.pack(dir, MAX_BUNDLE_BYTES);
        }
        var answer = upload(cardText, bundle);
        JsonNode body = answer.body();
        if (answer.status() == 422) {
            var errors = new ArrayList<String>();
            body.path("errors").forEach(e -> errors.add(e.path("part").asText("card") + " "
                    + e.path("pointer").asText("") + ": " + e.path("message").asText()));
            if (root.json) {
                Output.json(env, body);
                return ExitCodes.USER_ERROR;
            }
            return rejected(errors, "The server rejected the submission");
        }
        if (answer.status() != 202) {
            var error = body.path("error");
            throw new AtriumException(answer.status(), error.path("code").asInt(),
                    error.path("message").asText("HTTP " + answer.status()),
                    error.path("details").isMissingNode() || error.path("details").isNull() ? null
                            : error.path("details").asText());
        }
        String agentId = body.path("agent_id").asText();
        if (!root.json) {
            env.out().println("Submitted " + Output.safe(card.path("name").asText()) + " "
                    + Output.safe(card.path("version").asText()) + " (" + (image != null ? "image archive, "
                    : bundle.files().size() + " files, ") + bundle.bytes().length + " bytes): " + env.colour("@|yellow pending review|@") + ", agent "
                    + agentId + ", estimated review " + Output.safe(body.path("estimated_review").asText()));
            body.path("checks").fields().forEachRemaining(c -> env.out().println("  check " + Output.safe(c.getKey())
                    + ": " + Output.safe(c.getValue().path("status").asText(c.getValue().toString()))));
            bundle.skipped().forEach(s -> env.err().println("left out: " + Output.safe(s)));
        }
        if (!await) {
            if (root.json) {
                Output.json(env, body);
            }
            return ExitCodes.OK;
        }
        String version = card.path("version").asText();
        long deadline = System.nanoTime() + waitTimeout.toNanos();
        while (true) {
            String state = null;
            for (JsonNode v : client.get("v1/agents/" + agentId + "/versions?page_size=100").path("items")) {
                if (version.equals(v.path("version").asText())) {
                    state = v.path("review_state").asText();
                }
            }
            if (state != null && !"pending_review".equals(state)) {
                if (root.json) {
                    Output.json(env, Output.JSON.createObjectNode().put("agent_id", agentId).put("version", version)
                            .put("review_state", state));
                } else {
                    env.out().println("Review: " + env.colour("approved".equals(state) ? "@|green approved|@"
                            : "@|red,bold " + Output.safe(state) + "|@"));
                }
                return "approved".equals(state) ? ExitCodes.OK : ExitCodes.USER_ERROR;
            }
            if (System.nanoTime() > deadline) {
                throw CliException.user("Still pending review after " + waitTimeout + "; agent " + agentId);
            }
            Thread.sleep(poll.toMillis());
        }
    }

    private int rejected(List<String> problems, String headline) {
        if (root.json) {
            var answer = Output.JSON.createObjectNode().put("status", "rejected");
            problems.forEach(answer.putArray("errors")::add);
            Output.json(root.env, answer);
        } else {
            root.env.err().println(root.env.colour("@|red,bold Error:|@ ") + headline + ":");
            problems.forEach(p -> root.env.err().println("  " + Output.safe(p)));
        }
        return ExitCodes.USER_ERROR;
    }

    /** The card's problems against the served schema, each as "pointer: message". */
    static List<String> validate(JsonNode schema, JsonNode card) {
        var registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
        var problems = new ArrayList<String>();
        for (var error : registry.getSchema(schema.toString(), InputFormat.JSON).validate(card.toString(),
                InputFormat.JSON)) {
            String pointer = error.getInstanceLocation().toString();
            pointer = pointer.equals("$") ? "" : pointer;
            if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
                pointer = pointer + "/" + error.getProperty();
            }
            String message = error.getMessage();
            int colon = message.indexOf(": ");
            if (colon > 0 && message.substring(0, colon).equals(error.getInstanceLocation().toString())) {
                message = message.substring(colon + 2);
            }
            problems.add("card " + (pointer.isEmpty() ? "/" : pointer) + ": " + message);
        }
        return problems;
    }

    private record Answer(int status, JsonNode body) {
    }

    /** The multipart submission, its upload shown as a progress bar on a terminal. */
    private Answer upload(String cardText, BundlePacker.Bundle bundle) throws IOException, InterruptedException {
        var credentials = root.credentials();
        String boundary = "atrium-" + UUID.randomUUID();
        var body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"card\"\r\n"
                + "Content-Type: application/json\r\n\r\n" + cardText + "\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"bundle\"; filename=\""
                + (image != null ? "image.tar" : "bundle.tar.gz") + "\"\r\nContent-Type: "
                + (image != null ? "application/x-tar" : "application/gzip") + "\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(bundle.bytes());
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        byte[] bytes = body.toByteArray();
        var progress = new Progress(root.env, bytes.length, !root.json);
        var chunks = new ArrayList<byte[]>();
        for (int offset = 0; offset < bytes.length; offset += CHUNK) {
            chunks.add(Arrays.copyOfRange(bytes, offset, Math.min(bytes.length, offset + CHUNK)));
        }
        Iterable<byte[]> reported = () -> new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < chunks.size();
            }

            @Override
            public byte[] next() {
                byte[] chunk = chunks.get(next++);
                progress.sent(chunk.length);
                return chunk;
            }
        };
        var request = HttpRequest.newBuilder(URI.create(credentials.baseUrl().replaceAll("/+$", "") + "/v1/agents"))
                .timeout(Duration.ofMinutes(5)).header("Authorization", "Bearer " + credentials.requireKey())
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofByteArrays(reported),
                        bytes.length)).build();
        HttpResponse<byte[]> response;
        try {
            response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build()
                    .send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new AtriumException.Transport("The upload to " + credentials.baseUrl() + " failed: " + e, e);
        }
        progress.done();
        JsonNode answer;
        try {
            answer = Output.JSON.readTree(response.body());
        } catch (IOException e) {
            answer = Output.JSON.createObjectNode();
        }
        return new Answer(response.statusCode(), answer == null ? Output.JSON.createObjectNode() : answer);
    }

    /** A bar on a terminal ({@code [#####-----] 50% 1.2/2.4 MB}); one closing line elsewhere. */
    private static final class Progress {
        private final Environment env;
        private final long total;
        private final boolean shown;
        private long sent;
        private int drawn = -1;

        Progress(Environment env, long total, boolean shown) {
            this.env = env;
            this.total = total;
            this.shown = shown;
        }

        synchronized void sent(int bytes) {
            sent += bytes;
            int percent = (int) (sent * 100 / Math.max(1, total));
            if (shown && env.ansi().enabled() && percent != drawn) {
                drawn = percent;
                int filled = percent / 5;
                env.err().print("\rUploading [" + "#".repeat(filled) + "-".repeat(20 - filled) + "] " + percent
                        + "% " + String.format(Locale.ROOT, "%.1f/%.1f kB", sent / 1024.0, total / 1024.0));
                env.err().flush();
            }
        }

        synchronized void done() {
            if (shown) {
                env.err().println((env.ansi().enabled() ? "\r" : "") + "Uploaded " + sent + " bytes.");
            }
        }
    }
}
