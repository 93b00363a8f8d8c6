package dev.atrium.marketplace.boundary.search;

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
import dev.atrium.marketplace.control.search.SearchReconciler;

/** Reconciles this instance's search index with the database now, as its timer does (permission agent:review). */
@Path("v1/admin/search/reconcile")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
@RequiresPermission(Requesters.REVIEW)
public class AdminSearchResource {

    @EJB
    SearchReconciler reconciler;

    @POST
    @Operation(summary = "Compare this instance's search index with the listed agents now and fix differences; "
            + "answers how many agents were indexed again and removed")
    public SearchReconciler.Result reconcile() {
        return reconciler.reconcile();
    }
}
