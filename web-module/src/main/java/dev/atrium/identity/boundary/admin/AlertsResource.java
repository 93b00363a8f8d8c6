package dev.atrium.identity.boundary.admin;

import java.time.Instant;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.boundary.Origins;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.identity.control.login.AlertService;
import dev.atrium.identity.entity.SecurityAlert;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** Security alerts, for administrators: list and acknowledge. */
@Path("admin/alerts")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity-admin")
public class AlertsResource {

    /** One alert: an episode of a security signal for one subject. */
    @Schema(description = "A security alert")
    public record AlertView(long id, String kind, String subject, String details, Instant firstSeen,
                            Instant lastSeen, int count, String status, Long acknowledgedBy,
                            Instant acknowledgedAt) {

        static AlertView from(SecurityAlert a) {
            return new AlertView(a.id(), a.kind(), a.subject(), a.details(), a.firstSeen(), a.lastSeen(),
                    a.count(), a.status(), a.acknowledgedBy(), a.acknowledgedAt());
        }
    }

    @EJB
    AlertService alerts;

    @Inject
    HttpServletRequest request;

    @Inject
    ClientAddress addresses;

    @Context
    UriInfo uri;

    @GET
    @RequiresPermission("alert:read")
    @ListOf(AlertView.class)
    @Parameter(name = "kind", description = "success_rate, failures_per_address, refresh_frequency, "
            + "location_change, password_reset_frequency")
    @Parameter(name = "status", description = "open or acknowledged")
    @Parameter(name = "subject", description = "address:<ip>, user:<id> or all")
    @Operation(summary = "Security alerts, newest first, with the list conventions")
    public Object list() {
        return Envelopes.of(alerts.list(ListRequest.from(uri)), uri, AlertView::from);
    }

    @POST
    @Path("{id: \\d+}/ack")
    @RequiresPermission("alert:ack")
    @Operation(summary = "Acknowledge an alert; acknowledging it again changes nothing")
    public AlertView acknowledge(@PathParam("id") long id) {
        return AlertView.from(alerts.acknowledge(id, Callers.required(request).userId(),
                Origins.of(request, addresses)));
    }
}
