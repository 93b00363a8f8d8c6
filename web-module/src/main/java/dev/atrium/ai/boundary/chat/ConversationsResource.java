package dev.atrium.ai.boundary.chat;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.ai.control.chat.ConversationService;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.Envelopes;
import dev.atrium.platform.boundary.ListRequest;
import dev.atrium.platform.boundary.PathIds;
import dev.atrium.platform.boundary.openapi.ListOf;

/** The caller's conversation history. */
@Path("api/conversations")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "ai")
@RequiresPermission("chat")
public class ConversationsResource {

    @EJB
    ConversationService conversations;

    @Inject
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @GET
    @ListOf(ConversationView.class)
    @Operation(summary = "The caller's conversations, with the list conventions; search in titles")
    public Object list() {
        return Envelopes.of(conversations.list(Callers.required(request).userId(), ListRequest.from(uri)), uri,
                ConversationView::from);
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One conversation of the caller")
    public ConversationView get(@PathParam("id") String id) {
        return ConversationView.from(conversations.get(Callers.required(request).userId(),
                PathIds.uuid(id, "Conversation")));
    }

    @GET
    @Path("{id}/messages")
    @ListOf(MessageView.class)
    @Operation(summary = "The messages of a conversation (sort=created_at for reading order)")
    public Object messages(@PathParam("id") String id) {
        return Envelopes.of(conversations.messages(Callers.required(request).userId(),
                PathIds.uuid(id, "Conversation"), ListRequest.from(uri)), uri, MessageView::from);
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a conversation and its messages")
    @APIResponse(responseCode = "204", description = "Deleted")
    public void delete(@PathParam("id") String id) {
        conversations.delete(Callers.required(request).userId(), PathIds.uuid(id, "Conversation"));
    }
}
