package dev.atrium.content.boundary;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.content.control.TagService;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.openapi.ListOf;

/** Spec 02's tags: those on published articles, with their article counts. */
@Path("api/v1/tags")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "content")
public class TagsResource {

    @EJB
    TagService tags;

    @Context
    UriInfo uri;

    @GET
    @PermitAll
    @Operation(summary = "Tags of published articles with their counts")
    @ListOf(TagView.class)
    public Object list() {
        return Envelopes.of(tags.list(ListRequest.from(uri)), uri, TagView::from);
    }
}
