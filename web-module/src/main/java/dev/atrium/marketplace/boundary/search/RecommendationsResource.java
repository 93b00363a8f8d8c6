package dev.atrium.marketplace.boundary.search;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.CsrfExempt;
import dev.atrium.marketplace.control.search.SearchService;

/** Agents for a task: the task is analysed into capabilities and a category, then searched by the capabilities. */
@Path("v1/recommendations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "marketplace")
public class RecommendationsResource {

    @EJB
    SearchService search;

    @POST
    @PermitAll
    @CsrfExempt
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Recommend active agents for a task",
            description = "The task is compared with the capabilities and categories of listed agents using the "
                    + "embedding model; the closest capabilities, joined by spaces, are searched; top_k default 5.")
    public RecommendationResponse recommend(@Valid @NotNull RecommendationRequest body) {
        int topK = body.topK() == null ? SearchService.DEFAULT_TOP_K : body.topK();
        return RecommendationResponse.from(search.recommend(body.task(), topK));
    }
}
