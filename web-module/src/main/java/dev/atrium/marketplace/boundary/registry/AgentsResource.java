package dev.atrium.marketplace.boundary.registry;

import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityPart;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.AgentEventView;
import dev.atrium.marketplace.boundary.AgentView;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.boundary.search.SearchResponse;
import dev.atrium.marketplace.boundary.submission.SubmissionAccepted;
import dev.atrium.marketplace.boundary.submission.SubmissionForm;
import dev.atrium.marketplace.boundary.submission.SubmissionParts;
import dev.atrium.marketplace.boundary.submission.SubmissionRejected;
import dev.atrium.marketplace.boundary.submission.UploadLimit;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.registry.AgentService;
import dev.atrium.marketplace.control.search.SearchMode;
import dev.atrium.marketplace.control.search.SearchService;
import dev.atrium.marketplace.control.submission.SubmissionService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The registry of spec 03: submission, reading, semantic search, and the A2A and MCP views of an agent. */
@Path("v1/agents")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace", description = "Agent marketplace: registry, review, search, recommendation")
public class AgentsResource {

    /** An agent id: a UUID (never "search"); a malformed one is 404 like any unknown agent. */
    public static final String ID = "{id: [0-9a-fA-F-]+}";

    @EJB
    SubmissionService submissions;

    @EJB
    AgentService agents;

    @EJB
    SearchService search;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    @Inject
    BaseUrl baseUrl;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @POST
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @RequiresPermission(Requesters.PUBLISH)
    @UploadLimit
    @Operation(summary = "Submit an agent, or a new version of one's own agent",
            description = "Parts: card (JSON) and bundle (.tar.gz or .zip, optional when the card names a "
                    + "docker_image). The card is validated against GET /v1/schemas/agent-card, the bundle's entries "
                    + "must stay inside it; then the pre-listing checks run (smoke tests in the sandbox, static scan, "
                    + "dependencies, prompt injection, network audit, time and memory: a high-risk finding rejects); "
                    + "then the agent is stored as pending and waits for review (24 h).")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.MULTIPART_FORM_DATA,
            schema = @Schema(implementation = SubmissionForm.class)))
    @APIResponse(responseCode = "202", description = "Accepted: pending review",
            content = @Content(schema = @Schema(implementation = SubmissionAccepted.class)))
    @APIResponse(responseCode = "422", description = "Rejected: the error envelope with the spec's status "
            + "\"rejected\" and errors [{part, pointer, message}] listing every problem of the card and bundle, or the "
            + "high-risk findings of the pre-listing checks (with checks [...])")
    @APIResponse(responseCode = "409", description = "The name belongs to another developer's agent, or the version "
            + "is not higher than the current one")
    @APIResponse(responseCode = "413", description = "The bundle is larger than the limit")
    public Response submit(List<EntityPart> parts) {
        long author = Callers.required(request).userId();
        try (var submission = SubmissionParts.read(parts, config.uploadMaxBytes())) {
            var outcome = submissions.submit(author, submission.card(), submission.bundle());
            if (outcome.isRejected()) {
                return Response.status(422).entity(SubmissionRejected.of(outcome.problems(), outcome.checks())).build();
            }
            return Response.accepted(SubmissionAccepted.from(outcome))
                    .header("Location", AgentView.BASE + outcome.agent().id()).build();
        }
    }

    @GET
    @PermitAll
    @Operation(summary = "List agents: active ones; reviewers may filter by any status")
    @Parameter(name = "category", description = "Category slug")
    @Parameter(name = "author_id", description = "Author's user id")
    @Parameter(name = "trust_level", description = "unverified, community or official")
    @Parameter(name = "status", description = "pending, active, suspended or rejected (agent:review)")
    @Parameter(name = "search", description = "Text in name, display name or description")
    @ListOf(AgentView.class)
    public Object list() {
        var listing = agents.list(ListRequest.from(uri), Requesters.of(request));
        var authors = agents.authors(listing.items());
        return Envelopes.of(listing, uri, a -> AgentView.from(a, authors));
    }

    @GET
    @Path(ID)
    @PermitAll
    @Operation(summary = "One agent: active agents for everyone, any status for its author and reviewers; with its "
            + "declared dependencies and their pricing")
    public AgentView get(@PathParam("id") UUID id) {
        Agent agent = agents.get(id, Requesters.of(request));
        return AgentView.from(agent, agents.authors(List.of(agent)), agents.dependencies(agent));
    }

    @GET
    @Path(ID + "/history")
    @Operation(summary = "Every status move of the agent with who, when and why (author and reviewers)")
    @ListOf(AgentEventView.class)
    public Object history(@PathParam("id") UUID id) {
        return Envelopes.of(agents.history(id, Requesters.of(request), ListRequest.from(uri)), uri,
                AgentEventView::from);
    }

    @GET
    @Path("search")
    @PermitAll
    @Operation(summary = "Semantic search of active agents, nearest first",
            description = "Embeds q and orders active agents by ascending cosine distance of their capability "
                    + "embedding; mode=hybrid fuses that order with a BM25 keyword ranking (reciprocal rank fusion, "
                    + "k = 60).")
    public SearchResponse search(
            @QueryParam("q") @Parameter(description = "What the agent should do", required = true) String q,
            @QueryParam("category") @Parameter(description = "Only this category") String category,
            @QueryParam("limit") @DefaultValue("10") @Parameter(description = "An integer from 1 to 100")
            String limit,
            @QueryParam("mode") @DefaultValue("vector")
            @Parameter(description = "vector (default) or hybrid", schema = @Schema(type = SchemaType.STRING,
                    enumeration = {"vector", "hybrid"})) String mode) {
        return SearchResponse.from(search.search(q, category, SearchService.limit(limit), SearchMode.of(mode)));
    }

    @GET
    @Path(ID + "/a2a-card")
    @PermitAll
    @Operation(summary = "The agent as an A2A AgentCard (Agent2Agent protocol 0.3)")
    @APIResponse(responseCode = "200", description = "An A2A AgentCard: protocolVersion, name, description, url, "
            + "version, provider, capabilities, securitySchemes, security, defaultInputModes, defaultOutputModes, "
            + "skills")
    public Response a2aCard(@PathParam("id") UUID id) {
        Agent agent = agents.get(id, Requesters.of(request));
        var author = agents.authors(List.of(agent)).get(agent.authorId());
        return Response.ok(InteropCards.a2a(agent, author == null ? null : author.username(), baseUrl.value())).build();
    }

    @GET
    @Path(ID + "/mcp-tool")
    @PermitAll
    @Operation(summary = "The agent as an MCP tool descriptor")
    @APIResponse(responseCode = "200", description = "An MCP Tool: name, title, description, inputSchema, "
            + "outputSchema, annotations")
    public Response mcpTool(@PathParam("id") UUID id) {
        return Response.ok(InteropCards.mcpTool(agents.get(id, Requesters.of(request)))).build();
    }
}
