package dev.atrium.content.boundary;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.content.control.CommentService;

/** Comments are their own top-level resource once created (spec 01 path rules). */
@Path("api/v1/comments")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "content")
public class CommentsResource {

    @EJB
    CommentService comments;

    @Inject
    HttpServletRequest request;

    @DELETE
    @Path("{id: \\d+}")
    @Operation(summary = "Delete a comment (its author, the article's author or an administrator)")
    @APIResponse(responseCode = "204", description = "Deleted")
    public void delete(@PathParam("id") long id) {
        comments.delete(id, Viewers.of(request));
    }
}
