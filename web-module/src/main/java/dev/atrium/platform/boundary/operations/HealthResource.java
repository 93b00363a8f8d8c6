package dev.atrium.platform.boundary.operations;

import java.util.Map;
import java.util.Set;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.platform.health.HealthChecks;
import dev.atrium.platform.health.HealthParts;
import dev.atrium.platform.health.Probes;

/**
 * Spec 02: {@code {database, redis}} each {@code ok} or {@code error}; 200 when both are ok, else 503, so the part
 * that is down is named. {@code broker} says whether the message broker is connected, without changing the status:
 * while it is away requests still succeed and their events wait in the outbox. {@code models} is {@code echo only}
 * when no language model is configured (the development model alone answers), else {@code configured}; it does not
 * change the status either. {@code sandbox} is {@code ok} when the agent sandbox can enforce every limit here, else
 * {@code unavailable: <problem>} (untrusted agents are refused then); it does not change the status, since only
 * invocations depend on it. {@code payments} names the payment processor top-ups go to ({@code embedded
 * (development: top-ups are free)}, {@code webhook} or {@code stripe}). {@code backends} names what answered, since
 * the embedded default has no Redis.
 * <p>
 * Beside it, the orchestrator's probes in MicroProfile Health's format ({@link Probes}): {@code /health/live},
 * {@code /health/ready} and {@code /health/started}, 200 when {@code UP}, else 503.
 */
@Path("health")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "operations")
public class HealthResource {

    /** The health answer. */
    public record HealthResponse(String database, String redis, String broker, String models, String sandbox,
                                 String payments, Map<String, String> backends) {
    }

    /** The health answer and the probes: exempt from the rate limit and from required HTTPS, for probes inside. */
    public static final Set<String> PATHS = Set.of("/health", "/health/live", "/health/ready", "/health/started");

    @Inject
    HealthChecks checks;

    @Inject
    Probes probes;

    /** models, sandbox and payments: the contexts' own (ai, marketplace, billing). */
    @Inject
    HealthParts parts;

    @GET
    @PermitAll
    @Operation(summary = "Whether the database and the key-value store answer")
    @APIResponse(responseCode = "200", description = "All dependencies answer",
            content = @Content(schema = @Schema(implementation = HealthResponse.class)))
    @APIResponse(responseCode = "503", description = "A dependency fails",
            content = @Content(schema = @Schema(implementation = HealthResponse.class)))
    public Response health() {
        var report = checks.check();
        var body = new HealthResponse(report.database() ? "ok" : "error", report.store() ? "ok" : "error",
                report.broker() ? "ok" : "error", parts.describe("models"), parts.describe("sandbox"),
                parts.describe("payments"),
                Map.of("database", report.databaseBackend(), "redis", report.storeBackend()));
        return Response.status(report.healthy() ? 200 : 503).entity(body).build();
    }

    @GET
    @Path("live")
    @PermitAll
    @Operation(summary = "Liveness probe: whether the process can still serve (MicroProfile Health)")
    @APIResponse(responseCode = "200", description = "UP",
            content = @Content(schema = @Schema(implementation = Probes.Answer.class)))
    @APIResponse(responseCode = "503", description = "DOWN",
            content = @Content(schema = @Schema(implementation = Probes.Answer.class)))
    public Response live() {
        return probe(probes.live());
    }

    @GET
    @Path("ready")
    @PermitAll
    @Operation(summary = "Readiness probe: whether the database and the key-value store answer (MicroProfile Health)")
    @APIResponse(responseCode = "200", description = "UP",
            content = @Content(schema = @Schema(implementation = Probes.Answer.class)))
    @APIResponse(responseCode = "503", description = "DOWN",
            content = @Content(schema = @Schema(implementation = Probes.Answer.class)))
    public Response ready() {
        return probe(probes.ready());
    }

    @GET
    @Path("started")
    @PermitAll
    @Operation(summary = "Startup probe: whether deployment and schema migrations are done (MicroProfile Health)")
    @APIResponse(responseCode = "200", description = "UP",
            content = @Content(schema = @Schema(implementation = Probes.Answer.class)))
    @APIResponse(responseCode = "503", description = "DOWN",
            content = @Content(schema = @Schema(implementation = Probes.Answer.class)))
    public Response started() {
        return probe(probes.started());
    }

    private static Response probe(Probes.Answer answer) {
        return Response.status(answer.up() ? 200 : 503).entity(answer).build();
    }
}
