package dev.atrium.ai.boundary.admin;

import java.time.Instant;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.ai.control.AiAdminService;
import dev.atrium.ai.entity.Tier;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** Spec 02's {@code GET /api/admin/users}: users with their tier, role and today's usage; and their tier. */
@Path("api/admin/users")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "ai-admin")
@RequiresPermission("admin")
public class AiAdminResource {

    /** Today's usage. */
    public record UsageToday(long requests, long tokens) {
    }

    /** A user as the AI backend's administrators see it. */
    public record AiUserView(long id, String email, String username, String role, String tier, Instant createdAt,
                             UsageToday usageToday) {

        static AiUserView from(AiAdminService.AiUser u) {
            return new AiUserView(u.id(), u.email(), u.username(), u.role(), u.tier().value(), u.createdAt(),
                    new UsageToday(u.usageToday().requests(), u.usageToday().tokens()));
        }
    }

    /** {@code {"tier": "pro"}}. */
    public record TierRequest(@NotNull @Pattern(regexp = "free|pro|enterprise") String tier) {
    }

    @EJB
    AiAdminService admin;

    @Context
    UriInfo uri;

    @GET
    @ListOf(AiUserView.class)
    @Operation(summary = "Users with tier, role, creation and today's requests and tokens")
    public Object list() {
        return Envelopes.of(admin.users(ListRequest.from(uri)), uri, AiUserView::from);
    }

    @PATCH
    @Path("{id: \\d+}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change a user's tier")
    public AiUserView changeTier(@PathParam("id") long id, @Valid @NotNull TierRequest body) {
        return AiUserView.from(admin.changeTier(id, Tier.of(body.tier())));
    }
}
