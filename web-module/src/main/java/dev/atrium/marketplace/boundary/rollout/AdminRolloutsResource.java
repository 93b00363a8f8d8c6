package dev.atrium.marketplace.boundary.rollout;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.marketplace.boundary.Requesters;
import dev.atrium.marketplace.control.rollout.RolloutService;

/** Runs the rollouts' evaluation now, as the minute timer does (permission {@code agent:review}). */
@Path("v1/admin/rollouts/evaluate")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.REVIEW)
public class AdminRolloutsResource {

    /** How many rollouts moved. */
    public record Evaluated(int moved) {
    }

    @EJB
    RolloutService rollouts;

    @POST
    @Operation(summary = "Evaluates every rollout in progress now: advances, rolls back or holds each")
    public Evaluated evaluate() {
        return new Evaluated(rollouts.evaluateAll());
    }
}
