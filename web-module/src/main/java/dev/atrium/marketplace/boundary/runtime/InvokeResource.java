package dev.atrium.marketplace.boundary.runtime;

import java.io.InputStream;
import java.math.BigDecimal;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.boundary.InputRejected;
import dev.atrium.marketplace.control.rollout.VersionRouting;
import dev.atrium.marketplace.control.runtime.InvokeGateway;
import dev.atrium.marketplace.control.runtime.PriceCap;
import dev.atrium.platform.http.JsonInput;

/**
 * Spec 03's invoke: the caller's JSON input runs through the agent in the sandbox and the agent's output comes
 * back; the run's facts travel in {@code Atrium-*} headers, the invoke rate limit in {@code X-RateLimit-*}.
 */
@Path("v1/agents/{agent_id}/invoke")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class InvokeResource {

    public static final String RUN_ID = "Atrium-Run-Id";
    public static final String AGENT_VERSION = "Atrium-Agent-Version";
    public static final String RUN_STATUS = "Atrium-Run-Status";
    public static final String DURATION_MS = "Atrium-Duration-Ms";
    public static final String TOKENS_INPUT = "Atrium-Tokens-Input";
    public static final String TOKENS_OUTPUT = "Atrium-Tokens-Output";
    public static final String PRICE_USD = "Atrium-Price-Usd";

    @Inject
    InvokeGateway gateway;

    @Inject
    HttpServletRequest request;

    @POST
    // a dependency token is no login: the resource itself requires one or the other (401 without)
    @PermitAll
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Invoke an agent: run it in the sandbox on the input and answer its output",
            description = "Authenticate (API key or token); at most 100 invocations per 60 s window per user, "
                    + "whichever key or token makes them; the agent must be active; free-tier users have 100 calls "
                    + "and 50,000 tokens per calendar month (402, code 40200); the input must match the card's "
                    + "input_schema (422 with valid: false, the fields named in error.details); personal data in "
                    + "the input is masked before the agent sees it. A run that fails on the agent's side (timeout, "
                    + "crash, memory, output limit, unreadable reply) is still 200, with {\"error\": text} as the "
                    + "result, as spec 03 words it, and Atrium-Run-Status naming how it ended.")
    @RequestBody(required = true, description = "A JSON object matching the agent's input_schema",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "200", description = "The agent's output object, or {\"error\": text} when the run "
            + "failed", content = @Content(schema = @Schema(type = SchemaType.OBJECT)),
            headers = {
                    @Header(name = RUN_ID, description = "The run record, GET /v1/runs/{id}"),
                    @Header(name = AGENT_VERSION, description = "The agent version that ran"),
                    @Header(name = RUN_STATUS, description = "succeeded, failed, timed_out, memory_limit, "
                            + "output_limit or killed"),
                    @Header(name = DURATION_MS, description = "Wall time of the run in milliseconds"),
                    @Header(name = TOKENS_INPUT, description = "Input tokens the agent reported"),
                    @Header(name = TOKENS_OUTPUT, description = "Output tokens the agent reported"),
                    @Header(name = PRICE_USD, description = "What the invocation was charged, its agent's "
                            + "dependency calls included, 6 decimals")})
    @APIResponse(responseCode = "402", description = "The free tier's calls or tokens for this month are used up "
            + "(code 40200); or the balance cannot cover the most this call may cost, or that is above "
            + "Atrium-Max-Price-Usd (code 30001)")
    @APIResponse(responseCode = "422", description = "The input does not match the agent's input_schema: the "
            + "error envelope (code 40001) plus \"valid\": false; error.details is the spec's error text naming the "
            + "missing or wrongly typed fields")
    @APIResponse(responseCode = "503", description = "No sandbox slot freed in time, or the caller's or the "
            + "agent's share of the slots is in use (Retry-After, the message names which), the sandbox cannot "
            + "enforce limits for this agent here, or the agent ships as a container image only")
    public Response invoke(@PathParam("agent_id") @Parameter(description = "The agent's id or name") String agentId,
                           @QueryParam("version") @Parameter(description = "Pins a major version (1 or v1): only "
                                   + "approved versions of that major serve this call, and a rollout of another major "
                                   + "never reaches it; without it the call follows the agent's rollout") String version,
                           @HeaderParam(PriceCap.HEADER) @Parameter(description = "The most you agree to pay for "
                                   + "this invocation, its agent's dependency calls included (USD, up to 6 "
                                   + "decimals); without it, the agent's own maximum price, so dependencies may "
                                   + "charge only what you allow here") String maxPrice,
                           InputStream body) {
        Integer pinnedMajor = VersionRouting.pinnedMajor(version);
        var invocation = request.getAttribute(Callers.DEPENDENCY_TOKEN) instanceof String token
                ? gateway.invokeAsDependency(token, agentId, pinnedMajor, JsonInput.read(body))
                : invokeAsCaller(agentId, pinnedMajor, PriceCap.read(maxPrice), body);
        Response.ResponseBuilder answer;
        if (invocation.inputError() != null) {
            answer = Response.status(422).entity(InputRejected.of(invocation.inputError()));
        } else {
            answer = Response.ok(invocation.body())
                    .header(RUN_ID, invocation.runId())
                    .header(AGENT_VERSION, invocation.agentVersion())
                    .header(RUN_STATUS, invocation.status().value())
                    .header(DURATION_MS, invocation.durationMs())
                    .header(TOKENS_INPUT, invocation.tokensInput())
                    .header(TOKENS_OUTPUT, invocation.tokensOutput())
                    .header(PRICE_USD, invocation.price().toPlainString());
        }
        InvokeGateway.rateHeaders(invocation.rate(), false).forEach(answer::header);
        return answer.build();
    }

    private InvokeGateway.Invocation invokeAsCaller(String agentId, Integer pinnedMajor, BigDecimal maxPrice,
                                                    InputStream body) {
        Caller caller = Callers.required(request);
        var input = JsonInput.read(body);
        return gateway.invoke(new InvokeGateway.Invoker(caller.userId()), agentId, pinnedMajor, maxPrice, input);
    }
}
