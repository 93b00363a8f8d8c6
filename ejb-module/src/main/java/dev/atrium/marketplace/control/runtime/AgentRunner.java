package dev.atrium.marketplace.control.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.registry.AgentSecretService;
import dev.atrium.marketplace.control.submission.DependencyResolver;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentVersion;
import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.JsonInput;
import dev.atrium.platform.telemetry.Tracing;
import dev.atrium.sandbox.Executor;
import dev.atrium.sandbox.Limits;
import dev.atrium.sandbox.Network;
import dev.atrium.sandbox.Prepared;
import dev.atrium.sandbox.RunResult;
import dev.atrium.sandbox.RunSpec;
import dev.atrium.sandbox.SandboxRefused;

/**
 * Runs one invocation of an agent's current version in the sandbox, in a slot of this instance's pool, outside any
 * transaction: the unpacked bundle read-only, the card's {@code runtime.entrypoint} as the command, the limits of its
 * declaration under its trust level's ceilings, a scratch directory only when it declares filesystem access, network
 * only when declared and allowed, and of the environment only the agent's own secrets whose names the running
 * version declares in {@code allowed_env_vars} ({@link AgentSecretService}; never the server's own environment, nor
 * another agent's secrets). Agents below
 * {@code official} are untrusted: the executor refuses them where it cannot enforce the limits.
 *
 * <p>A version that declares agent dependencies also gets the invoke gateway ({@link Network#withGateway}, this
 * server's own HTTP port) and, in {@code ATRIUM_INVOKE_URL} and {@code ATRIUM_INVOKE_TOKEN}, the base URL to call its
 * dependencies under and a {@link DependencyTokens dependency token} for the user and the chain of agents so far,
 * revoked when the run ends. Other runs take a sandbox made ahead when one is ready ({@link WarmSandboxes}).
 */
@ApplicationScoped
public class AgentRunner {

    /** A finished run and the limits it ran under. */
    public record Run(RunResult result, Limits limits) {
    }

    /**
     * Who the run is for: the user whose call started the chain, the agents already in it (outermost first), the
     * run's own id (the parent of the dependency calls it makes) and the invocation whose budget they draw on.
     */
    public record Calling(long userId, List<UUID> chain, UUID runId, UUID rootRunId) {

        public Calling {
            chain = List.copyOf(chain);
        }
    }

    public static final String INVOKE_URL = "ATRIUM_INVOKE_URL";
    public static final String INVOKE_TOKEN = "ATRIUM_INVOKE_TOKEN";
    /** The token outlives the run's own limit by this much, so a call in its last second still authenticates. */
    static final Duration TOKEN_GRACE = Duration.ofSeconds(5);

    @Inject
    DependencyTokens tokens;

    @Inject
    @ConfigProperties
    PlatformConfig platformConfig;

    @Inject
    Executor executor;

    @Inject
    SandboxSlots slots;

    @Inject
    WarmSandboxes warm;

    @Inject
    BundleCache bundles;

    @Inject
    InvokeStages stages;

    @Inject
    Tracing tracing;

    @EJB
    AgentSecretService secrets;

    /** Runs {@code version} of the agent for {@code calling}; the agent's trust level sets the ceilings. */
    public Run run(Agent agent, AgentVersion version, byte[] stdin, Calling calling) {
        return tracing.inSpan("sandbox.run", () -> runTraced(agent, version, stdin, calling));
    }

    private Run runTraced(Agent agent, AgentVersion version, byte[] stdin, Calling calling) {
        if (version.bundleKey() == null) {
            throw new BusinessException(Problem.UNAVAILABLE, "This agent cannot run here",
                    "The agent names a container image (runtime.docker_image) but none was uploaded; this platform "
                            + "pulls no images: only agents with a bundle or an uploaded image archive can be invoked");
        }
        String card = version.cardJson();
        List<String> command = entrypoint(card);
        BundleCache.Image image = BundleCache.isImage(version.bundleKey()) ? bundles.image(version.bundleKey()) : null;
        if (command.isEmpty() && image != null) {
            command = image.config().command();
        }
        if (command.isEmpty()) {
            throw new BusinessException(Problem.UNAVAILABLE, "This agent cannot run here",
                    "The agent's card has no runtime.entrypoint");
        }
        Permissions declared = Permissions.of(card);
        TrustLevel trust = agent.trustLevel();
        Limits limits = AgentLimits.of(declared, trust);
        Network network = AgentLimits.network(declared, trust) ? Network.to(declared.allowedDomains()) : Network.NONE;
        var environment = new LinkedHashMap<String, String>();
        if (image != null) {
            environment.putAll(imageEnvironment(image.config().env()));
        }
        environment.putAll(secrets.environment(agent.id(), declared.allowedEnvVars()));
        var dependencies = dependencies(card);
        String token = null;
        if (!dependencies.isEmpty()) {
            var chain = new ArrayList<>(calling.chain());
            chain.add(agent.id());
            token = tokens.mint(new DependencyTokens.Grant(calling.userId(), chain, dependencies, calling.runId(),
                            calling.rootRunId()),
                    limits.timeout().plus(TOKEN_GRACE));
            environment.put(INVOKE_URL, "http://" + Network.GATEWAY_HOST + "/v1/agents");
            environment.put(INVOKE_TOKEN, token);
            network = network.withGateway(platformConfig.httpPort);
        }
        var spec = image != null
                ? new RunSpec(image.root(), command, stdin, environment, limits, network, declared.filesystem(), false,
                trust != TrustLevel.OFFICIAL).onRootFileSystem(image.config().workingDir())
                : new RunSpec(bundles.unpacked(version.bundleKey()), command, stdin, environment, limits, network,
                declared.filesystem(), false, trust != TrustLevel.OFFICIAL);
        try {
            // a call from within a run counts against its agent's cap only (SandboxSlots)
            var claim = SandboxSlots.Claim.invocation(calling.userId(), agent.id(), !calling.chain().isEmpty());
            var queued = stages.start(InvokeStages.Stage.QUEUE);
            // a per-call token cannot be in a sandbox made before the call
            boolean warmable = token == null;
            RunResult result = slots.run(claim, () -> {
                queued.stop();
                try (var timing = stages.start(InvokeStages.Stage.SANDBOX)) {
                    var made = warmable ? warm.take(agent.id(), spec) : Optional.<Prepared>empty();
                    return made.isPresent() ? made.get().run(stdin) : executor.run(spec);
                } catch (SandboxRefused e) {
                    throw new BusinessException(Problem.UNAVAILABLE, "The sandbox refused to run this agent",
                            e.getMessage());
                }
            });
            return new Run(result, limits);
        } finally {
            if (token != null) {
                tokens.revoke(token);
            }
        }
    }

    /** An image's {@code Env} ({@code NAME=value}) as a map; entries without a name or with NUL are left out. */
    public static Map<String, String> imageEnvironment(List<String> env) {
        var out = new LinkedHashMap<String, String>();
        for (String pair : env) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.indexOf('\0') < 0) {
                out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return out;
    }

    /** The card's declared agent dependencies: name → version range. */
    static Map<String, String> dependencies(String cardJson) {
        var declared = new LinkedHashMap<String, String>();
        for (JsonObject d : DependencyResolver.dependencies(cardJson)) {
            declared.put(d.getString("name"), d.getString("version"));
        }
        return declared;
    }

    static List<String> entrypoint(String cardJson) {
        var command = new ArrayList<String>();
        JsonValue card = JsonInput.read(cardJson);
        if (card instanceof JsonObject c && c.get("runtime") instanceof JsonObject runtime
                && runtime.get("entrypoint") instanceof JsonArray parts) {
            for (JsonValue part : parts) {
                if (part instanceof JsonString s) {
                    command.add(s.getString());
                }
            }
        }
        return command;
    }
}
