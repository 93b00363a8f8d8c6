package dev.atrium.ai.boundary;

import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.glassfish.jersey.server.ChunkedOutput;

import dev.atrium.ai.control.ChatService;
import dev.atrium.ai.control.StreamCache;
import dev.atrium.identity.boundary.Callers;
import dev.atrium.identity.boundary.RequiresPermission;
import dev.atrium.platform.error.BusinessException;

/** Spec 02's chat: a whole answer, a streamed one, and resuming a stream from an offset. */
@Path("api/chat")
@RequestScoped
@Tag(name = "ai")
public class ChatResource {

    private static final Logger LOG = Logger.getLogger(ChatResource.class.getName());
    static final int RESUME_CHUNK = 10;

    @Inject
    ChatService chat;

    @Inject
    StreamCache cache;

    @Inject
    HttpServletRequest request;

    @Resource(lookup = ChatService.STREAMS)
    ManagedExecutorService executor;

    @POST
    @Path("completions")
    @RequiresPermission("chat")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Chat: the model's whole answer; a null conversation_id starts a conversation")
    public ChatResponse complete(@Valid @NotNull ChatRequest body) {
        return ChatResponse.from(chat.complete(Callers.required(request).userId(), body.toCommand()));
    }

    @POST
    @Path("stream")
    @RequiresPermission("chat")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "Chat, streamed: events {type: content, content} then {type: done, message_id} once the "
            + "answer is saved. Quota and validation errors come before the stream, as JSON")
    @APIResponse(responseCode = "200", description = "text/event-stream")
    public void stream(@Valid @NotNull ChatRequest body, @Context SseEventSink sink, @Context Sse sse) {
        var started = chat.begin(Callers.required(request).userId(), body.toCommand());
        streamInBackground(started, new StreamEvents(sink, sse));
    }

    /** Runs the model on a thread of the streams executor, sending each fragment as an event as it comes. */
    private void streamInBackground(ChatService.Started started, StreamEvents events) {
        executor.execute(() -> {
            try {
                var reply = chat.stream(started, delta -> events.send(Map.of("type", "content", "content", delta)),
                        events::gone);
                events.send(Map.of("type", "done", "message_id", reply.messageId().toString()));
            } catch (RuntimeException e) {
                if (!(e instanceof BusinessException)) {
                    LOG.log(Level.SEVERE, "Chat stream failed", e);
                }
                events.error(e);
            } finally {
                events.close();
            }
        });
    }

    /** Smart-stream's answer when the work goes to a task: where to poll, and the estimate. */
    public record SmartStreamTask(String taskId, String mode, double estimatedTime, String id, String href) {
    }

    @POST
    @Path("smart-stream")
    @RequiresPermission("chat")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.SERVER_SENT_EVENTS, MediaType.APPLICATION_JSON})
    @Operation(summary = "Chat that picks its mode: an estimated time under 30 s streams like /api/chat/stream; "
            + "otherwise a task is submitted and the answer is {task_id, mode: async, estimated_time}")
    @APIResponse(responseCode = "200", description = "text/event-stream, as /api/chat/stream")
    @APIResponse(responseCode = "202", description = "Submitted as a task",
            content = @Content(schema = @Schema(implementation = SmartStreamTask.class)))
    public Response smartStream(@Valid @NotNull ChatRequest body) {
        long userId = Callers.required(request).userId();
        var plan = chat.plan(userId, body.toCommand());
        if (plan.task() != null) {
            String id = plan.task().id().toString();
            return Response.accepted(new SmartStreamTask(id, "async", plan.estimatedSeconds(), id, "/api/tasks/" + id))
                    .type(MediaType.APPLICATION_JSON_TYPE).header("Location", "/api/tasks/" + id).build();
        }
        // a Jersey ChunkedOutput, not StreamingOutput: Jersey holds a StreamingOutput's first 8 KiB, flush or not
        var output = new ChunkedOutput<String>(String.class);
        streamInBackground(plan.started(), new StreamEvents(output));
        return Response.ok(output, MediaType.SERVER_SENT_EVENTS_TYPE).build();
    }

    @GET
    @Path("stream/resume/{message_id}")
    @RequiresPermission("chat")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "The rest of a streamed answer from last_offset, in 10-character chunks {content, offset}, "
            + "then {type: done}; 404 once the cache expired or for another user's message")
    @APIResponse(responseCode = "200", description = "text/event-stream")
    public void resume(@PathParam("message_id") String messageId, @QueryParam("last_offset") @DefaultValue("0")
            int lastOffset, @Context SseEventSink sink, @Context Sse sse) {
        if (lastOffset < 0) {
            throw BusinessException.validation("last_offset: must be 0 or more");
        }
        UUID id;
        try {
            id = UUID.fromString(messageId);
        } catch (IllegalArgumentException e) {
            throw BusinessException.notFound("Cached stream");
        }
        String content = cache.get(id, Callers.required(request).userId())
                .orElseThrow(() -> BusinessException.notFound("Cached stream"));
        var events = new StreamEvents(sink, sse);
        try {
            for (int offset = lastOffset; offset < content.length() && !events.gone(); offset += RESUME_CHUNK) {
                events.send(Map.of("content", content.substring(offset, Math.min(content.length(),
                        offset + RESUME_CHUNK)), "offset", offset));
            }
            events.send(Map.of("type", "done"));
        } finally {
            events.close();
        }
    }
}
