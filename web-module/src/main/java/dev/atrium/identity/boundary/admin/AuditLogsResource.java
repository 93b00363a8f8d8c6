package dev.atrium.identity.boundary.admin;

import java.time.Instant;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.entity.AuditLog;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The audit log, for administrators. */
@Path("admin/audit-logs")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "identity-admin")
public class AuditLogsResource {

    /** One audit entry (spec 01 AuditLog, plus who acted when that was someone else). */
    @Schema(description = "An audit entry")
    public record AuditLogView(long id, Long userId, Long actorId, String action, String ipAddress,
                               String userAgent, boolean success, Instant createdAt) {

        static AuditLogView from(AuditLog a) {
            return new AuditLogView(a.id(), a.userId(), a.actorId(), a.action(), a.ipAddress(), a.userAgent(),
                    a.success(), a.createdAt());
        }
    }

    @EJB
    AuditService audit;

    @Context
    UriInfo uri;

    @GET
    @RequiresPermission("audit:read")
    @ListOf(AuditLogView.class)
    @Parameter(name = "user_id", description = "The user concerned")
    @Parameter(name = "action", description = "login, logout, register, password_change, …")
    @Parameter(name = "success", description = "true or false")
    @Operation(summary = "Audit entries, newest first, with the list conventions")
    public Object list() {
        return Envelopes.of(audit.list(ListRequest.from(uri)), uri, AuditLogView::from);
    }
}
