package dev.atrium.content.boundary;

import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.content.control.ArticleService;
import dev.atrium.content.control.CommentService;
import dev.atrium.content.entity.Article;
import dev.atrium.identity.control.Callers;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.json.Patch;
import dev.atrium.platform.boundary.openapi.ListOf;

/** Spec 02's articles and the comments under them. Reading is public; writing needs a token. */
@Path("api/v1/articles")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "content")
public class ArticlesResource {

    @EJB
    ArticleService articles;

    @EJB
    CommentService comments;

    @Inject
    ArticlePages pages;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @PermitAll
    @Operation(summary = "List articles: published ones, and the caller's own drafts")
    @Parameter(name = "tag", description = "Tag slug; several separated by commas")
    @Parameter(name = "published", description = "true or false")
    @Parameter(name = "author_id", description = "Author's user id")
    @Parameter(name = "search", description = "Text in title or body")
    @Parameter(name = "expand", description = "author, tags")
    @ListOf(ArticleView.class)
    public Object list() {
        var viewer = Viewers.of(request);
        return pages.list(viewer, uri, () -> {
            var listing = articles.list(ListRequest.from(uri), viewer);
            var expansion = Expansion.load(ListRequest.expand(uri), listing.items(), articles);
            return Envelopes.of(listing, uri, a -> ArticleView.from(a, expansion));
        });
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create an article as a draft")
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(schema = @Schema(implementation = ArticleView.class)))
    public Response create(@Valid @NotNull ArticleCreateRequest body) {
        Article article = articles.create(Callers.required(request).userId(), body.toDraft());
        return Response.status(Response.Status.CREATED).header("Location", ArticleView.BASE + article.id())
                .entity(view(article)).build();
    }

    @GET
    @Path("{id: \\d+}")
    @PermitAll
    @Operation(summary = "One article; a draft only for its author")
    public ArticleView get(@PathParam("id") long id) {
        return view(articles.get(id, Viewers.of(request)));
    }

    @PATCH
    @Path("{id: \\d+}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change an article (author or administrator); only the fields sent change")
    @RequestBody(content = @Content(schema = @Schema(implementation = ArticlePatchRequest.class)))
    public ArticleView update(@PathParam("id") long id, Patch<ArticlePatchRequest> patch) {
        return view(articles.update(id, Viewers.of(request), ArticlePatchRequest.changes(patch)));
    }

    @DELETE
    @Path("{id: \\d+}")
    @Operation(summary = "Delete an article and its comments (author or administrator)")
    @APIResponse(responseCode = "204", description = "Deleted")
    public void delete(@PathParam("id") long id) {
        articles.delete(id, Viewers.of(request));
    }

    @POST
    @Path("{id: \\d+}/publish")
    @Operation(summary = "Publish a draft (author or administrator)")
    public ArticleView publish(@PathParam("id") long id) {
        return view(articles.publish(id, Viewers.of(request)));
    }

    @POST
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create up to 100 drafts at once; all or none")
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(schema = @Schema(implementation = ArticleBatch.class)))
    public Response createBatch(@NotNull @Size(min = 1, max = 100) List<ArticleCreateRequest> body) {
        var created = articles.createAll(Callers.required(request).userId(),
                body.stream().map(ArticleCreateRequest::toDraft).toList());
        return Response.status(Response.Status.CREATED).entity(new ArticleBatch(views(created))).build();
    }

    @PATCH
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change up to 100 articles at once, each object naming its id; all or none")
    @RequestBody(content = @Content(schema = @Schema(implementation = ArticlePatchRequest[].class)))
    public ArticleBatch updateBatch(List<Patch<ArticlePatchRequest>> body) {
        var changes = body.stream().map(ArticlePatchRequest::changes).toList();
        return new ArticleBatch(views(articles.updateAll(Viewers.of(request), changes)));
    }

    @DELETE
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Delete up to 100 articles at once; all or none")
    @APIResponse(responseCode = "204", description = "Deleted")
    public void deleteBatch(@Valid @NotNull IdsRequest body) {
        articles.deleteAll(Viewers.of(request), body.ids());
    }

    @GET
    @Path("{id: \\d+}/comments")
    @PermitAll
    @Operation(summary = "Comments of an article, newest first by default")
    @ListOf(CommentView.class)
    public Object comments(@PathParam("id") long id) {
        var query = ListRequest.from(uri);
        return Envelopes.of(comments.list(id, Viewers.of(request), query), uri, CommentView::from);
    }

    @POST
    @Path("{id: \\d+}/comments")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Comment on an article")
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(schema = @Schema(implementation = CommentView.class)))
    public Response comment(@PathParam("id") long id, @Valid @NotNull CommentCreateRequest body) {
        var comment = comments.add(id, Viewers.of(request), body.body());
        return Response.status(Response.Status.CREATED).header("Location", "/api/v1/comments/" + comment.id())
                .entity(CommentView.from(comment)).build();
    }

    private ArticleView view(Article article) {
        return views(List.of(article)).get(0);
    }

    private List<ArticleView> views(List<Article> list) {
        var expansion = Expansion.load(ListRequest.expand(uri), list, articles);
        return list.stream().map(a -> ArticleView.from(a, expansion)).toList();
    }
}
