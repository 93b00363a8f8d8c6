package dev.atrium.marketplace.boundary.installations;

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
import dev.atrium.marketplace.control.registry.InstallationService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The caller's installed agents. */
@Path("v1/me/installations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class MyInstallationsResource {

    @EJB
    InstallationService installations;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @Operation(summary = "The caller's installed agents, last installed first (list conventions; sort installed_at)")
    @Parameter(name = "agent_id", description = "Only the installation of this agent")
    @ListOf(InstallationView.class)
    public Object list() {
        return Envelopes.of(installations.mine(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                InstallationView::from);
    }
}
