package dev.atrium.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import dev.atrium.sandbox.BubblewrapExecutor;
import dev.atrium.sandbox.BundleRefused;
import dev.atrium.sandbox.BundleUnpacker;
import dev.atrium.sandbox.ImageArchive;
import dev.atrium.sandbox.ImageConfig;
import dev.atrium.sandbox.Limits;
import dev.atrium.sandbox.Network;
import dev.atrium.sandbox.RunResult;
import dev.atrium.sandbox.RunSpec;

/**
 * The agent in a directory as the server would run it: the directory packed as {@code agent publish} packs it and
 * unpacked as the server unpacks it, the card's limits capped as for a new agent, the input checked against
 * {@code input_schema} (draft 2020-12, no remote references) and the reply read as the invoke gateway reads it, with
 * the gateway's error texts and run statuses. {@code agent test} and {@code agent dev} both run agents through it.
 */
final class LocalAgent {

    static final long MAX_MEMORY_MB = 256;
    static final long MAX_TIMEOUT_S = 30;
    /** As the gateway: at most this many input problems are named. */
    static final int PROBLEMS_SHOWN = 20;

    /** Loaded on first use: the validator's classes are a good part of a command's start. */
    private static final class Schemas {
        static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
    }

    /** How a run ended, as {@code Atrium-Run-Status} says it. */
    enum Status {
        SUCCEEDED, FAILED, TIMED_OUT, MEMORY_LIMIT, OUTPUT_LIMIT, KILLED;

        String value() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One run read through the protocol: {@code output} on success, else {@code error} as the gateway words it. */
    record Run(RunResult result, Status status, JsonNode output, JsonNode usage, String error) {

        boolean succeeded() {
            return status == Status.SUCCEEDED;
        }

        long tokens(String name) {
            JsonNode n = usage == null ? null : usage.get(name);
            return n != null && n.canConvertToLong() && n.isIntegralNumber() && n.asLong() >= 0
                    ? Math.min(n.asLong(), Integer.MAX_VALUE) : 0;
        }
    }

    /** The server's caps of an image archive (atrium.marketplace.image.*). */
    static final ImageArchive.Caps IMAGE_CAPS = ImageArchive.Caps.of(50_000, 512L * 1024 * 1024);

    private final JsonNode card;
    private final List<String> command;
    private final Limits limits;
    private final Path bundle;
    private final String fingerprint;
    /** For an image: its Entrypoint/Cmd, Env and WorkingDir; {@code bundle} is then its root. Else null. */
    private final ImageConfig image;

    private LocalAgent(JsonNode card, List<String> command, Limits limits, Path bundle, String fingerprint,
                       ImageConfig image) {
        this.card = card;
        this.command = command;
        this.limits = limits;
        this.bundle = bundle;
        this.fingerprint = fingerprint;
        this.image = image;
    }

    /**
     * Reads {@code dir}'s card and unpacks its bundle under {@code into} (which must not exist yet); a card or bundle
     * that would be refused is a {@link CliException} naming why.
     */
    static LocalAgent load(Path dir, Path into) throws IOException {
        return load(dir, into, null);
    }

    /**
     * As {@link #load(Path, Path)}; with {@code imageArchive} the agent is that image (docker save or OCI archive),
     * unpacked as the server unpacks it, and runs on its root with the card's entrypoint or the image's
     * Entrypoint/Cmd.
     */
    static LocalAgent load(Path dir, Path into, Path imageArchive) throws IOException {
        String fingerprint = fingerprint(dir, imageArchive);
        JsonNode card = card(dir);
        var command = new ArrayList<String>();
        card.path("runtime").path("entrypoint").forEach(part -> command.add(part.asText()));
        if (command.isEmpty() && imageArchive == null) {
            throw CliException.user("agent.json has no runtime.entrypoint: give the image archive with --image, "
                    + "or add an entrypoint and run the directory as a bundle");
        }
        long memory = Math.max(16, Math.min(card.path("runtime").path("memory_mb").asLong(MAX_MEMORY_MB),
                MAX_MEMORY_MB));
        long timeout = Math.max(1, Math.min(card.path("runtime").path("timeout_s").asLong(MAX_TIMEOUT_S),
                MAX_TIMEOUT_S));
        // as the server runs an unverified agent: the declared CPU quota, at most the default 50 %
        int cpu = (int) Math.max(10, Math.min(card.path("permissions").path("max_cpu_percent").asLong(50), 50));
        var limits = Limits.DEFAULTS.withMemoryMb(memory).withTimeout(Duration.ofSeconds(timeout)).withCpuPercent(cpu);
        Files.createDirectories(into);
        if (imageArchive != null) {
            checkImage(imageArchive);
            Path root = into.resolve("root");
            ImageArchive.Unpacked unpacked;
            try {
                unpacked = ImageArchive.unpack(imageArchive, root, IMAGE_CAPS);
            } catch (BundleRefused e) {
                throw CliException.user("The image would be refused: " + e.getMessage());
            }
            if (command.isEmpty()) {
                command.addAll(unpacked.config().command());
            }
            if (command.isEmpty()) {
                throw CliException.user("Neither agent.json's runtime.entrypoint nor the image's Entrypoint/Cmd "
                        + "names a command");
            }
            return new LocalAgent(card, List.copyOf(command), limits, root, fingerprint, unpacked.config());
        }
        var packed = BundlePacker.pack(dir, PublishCommand.MAX_BUNDLE_BYTES);
        Path archive = into.resolve("bundle.tar.gz");
        Files.write(archive, packed.bytes());
        Path target = into.resolve("bundle");
        try {
            BundleUnpacker.unpack(archive, target, 10_000, 200L * 1024 * 1024);
        } catch (BundleRefused e) {
            throw CliException.user("The bundle would be refused: " + e.getMessage());
        }
        return new LocalAgent(card, List.copyOf(command), limits, target, fingerprint, null);
    }

    /** An image archive the server would take: told by its content, within the size cap. */
    static void checkImage(Path archive) throws IOException {
        if (!Files.isRegularFile(archive)) {
            throw CliException.user("No image archive at " + archive + ": make one with docker save -o FILE IMAGE, "
                    + "or skopeo copy docker://IMAGE oci-archive:FILE");
        }
        if (Files.size(archive) > PublishCommand.MAX_IMAGE_BYTES) {
            throw CliException.user("The image archive has " + Files.size(archive) + " bytes; at most "
                    + PublishCommand.MAX_IMAGE_BYTES + " are accepted");
        }
        if (!ImageArchive.isImage(archive)) {
            throw CliException.user(archive + " is not an image archive (docker save, or an OCI archive as skopeo "
                    + "writes it)");
        }
    }

    /** The directory's fingerprint, and the image archive's size and time when there is one. */
    static String fingerprint(Path dir, Path imageArchive) throws IOException {
        String fingerprint = BundlePacker.fingerprint(dir);
        if (imageArchive != null && Files.exists(imageArchive)) {
            fingerprint += " image " + Files.size(imageArchive) + " " + Files.getLastModifiedTime(imageArchive);
        }
        return fingerprint;
    }

    /**
     * A fresh private directory for bundles and runs. Searchable (not readable) by others: the agent runs as
     * nobody and must reach its bundle below it; nobody can list what is there.
     */
    static Path workDirectory(String prefix) throws IOException {
        Path work = Files.createTempDirectory(prefix);
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx--x--x"));
        return work;
    }

    /** The sandbox the server uses, or a {@link CliException} when it cannot enforce an agent's limits here. */
    static BubblewrapExecutor sandbox(Path work) {
        var executor = BubblewrapExecutor.create(work);
        if (!executor.capabilities().canRunUntrusted()) {
            throw new CliException(ExitCodes.SERVER_ERROR, "The sandbox cannot enforce an agent's limits on this "
                    + "machine: " + String.join("; ", executor.capabilities().problems()));
        }
        return executor;
    }

    static JsonNode card(Path dir) throws IOException {
        try {
            JsonNode card = Output.JSON.readTree(Files.readString(dir.resolve("agent.json")));
            if (card == null || !card.isObject()) {
                throw CliException.user("agent.json must be a JSON object");
            }
            return card;
        } catch (NoSuchFileException e) {
            throw CliException.user("No agent.json in " + dir.toAbsolutePath().normalize()
                    + ": run agent init, or -C the agent's directory");
        } catch (JsonProcessingException e) {
            throw CliException.user("agent.json is not JSON: " + Output.safe(e.getOriginalMessage()));
        }
    }

    JsonNode card() {
        return card;
    }

    String name() {
        return card.path("name").asText("");
    }

    String version() {
        return card.path("version").asText("");
    }

    Limits limits() {
        return limits;
    }

    /** The directory's fingerprint when it was loaded: a different one now means it changed. */
    String fingerprint() {
        return fingerprint;
    }

    /** The gateway's reasons to refuse an input, each {@code pointer: message}; empty when it may run. */
    List<String> inputProblems(JsonNode input) {
        if (input == null || !input.isObject()) {
            return List.of("The input must be a JSON object, not " + kind(input));
        }
        return problems(card.path("input_schema"), input);
    }

    /** Where the output breaks {@code output_schema}: the server does not check it, the author wants to know. */
    List<String> outputProblems(JsonNode output) {
        return output == null ? List.of() : problems(card.path("output_schema"), output);
    }

    Run run(BubblewrapExecutor executor, JsonNode input) {
        byte[] stdin = input.toString().getBytes(StandardCharsets.UTF_8);
        var result = executor.run(image == null ? RunSpec.of(bundle, command, stdin, limits)
                : new RunSpec(bundle, command, stdin, environment(image.env()), limits, Network.NONE, false, false,
                true).onRootFileSystem(image.workingDir()));
        return switch (result.outcome()) {
            case TIMED_OUT -> failed(result, Status.TIMED_OUT,
                    "The agent timed out after " + limits.timeout().toSeconds() + " s");
            case MEMORY_LIMIT -> failed(result, Status.MEMORY_LIMIT, "The agent ran out of memory");
            case OUTPUT_LIMIT -> failed(result, Status.OUTPUT_LIMIT, "The agent wrote more output than allowed");
            case KILLED -> failed(result, Status.KILLED, "The agent was stopped by the sandbox");
            case EXITED -> result.exitCode() != 0
                    ? failed(result, Status.FAILED, "The agent exited with code " + result.exitCode())
                    : reply(result);
        };
    }

    /** An image's {@code Env} ({@code NAME=value}) as the server passes it. */
    static Map<String, String> environment(List<String> env) {
        var out = new LinkedHashMap<String, String>();
        for (String pair : env) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.indexOf('\0') < 0) {
                out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return out;
    }

    private static Run reply(RunResult result) {
        JsonNode reply;
        try {
            reply = Output.JSON.readTree(result.stdoutText().strip());
        } catch (IOException e) {
            reply = null;
        }
        if (reply == null || !reply.isObject()) {
            return failed(result, Status.FAILED, "The agent's stdout is not a JSON object");
        }
        if (!reply.path("output").isObject()) {
            return failed(result, Status.FAILED, "The agent's reply has no \"output\" object");
        }
        return new Run(result, Status.SUCCEEDED, reply.get("output"),
                reply.path("usage").isObject() ? reply.get("usage") : null, null);
    }

    private static Run failed(RunResult result, Status status, String error) {
        return new Run(result, status, null, null, error);
    }

    private static List<String> problems(JsonNode schema, JsonNode value) {
        if (!schema.isObject()) {
            return List.of();
        }
        var problems = new ArrayList<String>();
        for (var error : Schemas.REGISTRY.getSchema(schema.toString(), InputFormat.JSON).validate(value.toString(),
                InputFormat.JSON)) {
            String location = error.getInstanceLocation().toString();
            location = location.equals("$") || location.equals("/") ? "" : location;
            if ("required".equals(error.getKeyword()) && error.getProperty() != null) {
                location = location + "/" + error.getProperty().replace("~", "~0").replace("/", "~1");
            }
            String message = error.getMessage();
            int colon = message.indexOf(": ");
            if (colon > 0 && message.substring(0, colon).equals(error.getInstanceLocation().toString())) {
                message = message.substring(colon + 2);
            }
            problems.add((location.isEmpty() ? "(input)" : location) + ": " + message);
        }
        return problems;
    }

    private static String kind(JsonNode v) {
        if (v == null || v.isNull()) {
            return "null";
        }
        if (v.isArray()) {
            return "an array";
        }
        if (v.isTextual()) {
            return "a string";
        }
        if (v.isNumber()) {
            return "a number";
        }
        return v.isBoolean() ? "a boolean" : "an object";
    }
}
