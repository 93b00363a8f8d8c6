package dev.atrium.marketplace.boundary.runtime;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.Callers;
import dev.atrium.marketplace.control.UsageQueries;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The caller's own usage records. */
@Path("v1/me/usage")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "billing")
public class MyUsageResource {

    @EJB
    UsageQueries usages;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @Operation(summary = "The caller's usage records, newest first (list conventions)")
    @Parameter(name = "agent_id", description = "Only calls of this agent")
    @Parameter(name = "month", description = "Only this calendar month (UTC), YYYY-MM")
    @Parameter(name = "succeeded", description = "true or false")
    @ListOf(UsageRecordView.class)
    public Object list() {
        return Envelopes.of(usages.mine(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                UsageRecordView::from);
    }
}
