package dev.atrium.ai.boundary.chat;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;
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

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.glassfish.jersey.server.ChunkedOutput;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.chat.ChatService;
import dev.atrium.ai.control.chat.StreamCache;
import dev.atrium.ai.entity.Tier;
import dev.atrium.identity.control.Callers;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.PathIds;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** Spec 02's chat: a whole answer, a streamed one, and resuming a stream from an offset. */
@Path("api/chat")
@ApplicationScoped
@Tag(name = "ai")
public class ChatResource {

    private static final Logger LOG = Logger.getLogger(ChatResource.class.getName());
    static final int RESUME_CHUNK = 10;
    static final long FOLLOW_POLL_MS = 50;

    @EJB
    ChatService chat;

    @Inject
    StreamCache cache;

    @Inject
    QuotaService quotas;

    @Inject
    Validator validator;

    @Inject
    HttpServletRequest request;

    @Inject
    @ConfigProperties
    AiConfig config;

    @Inject
    StreamThreads executor;

    @POST
    @Path("completions")
    @RequiresPermission("chat")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, MediaType.SERVER_SENT_EVENTS})
    @Operation(summary = "Chat: the model's whole answer; a null conversation_id starts a conversation",
            description = "With \"stream\": true the answer is streamed as /api/chat/stream streams it (the same "
                    + "text/event-stream events); without stream, or with false, it is one ChatResponse.")
    @APIResponse(responseCode = "200", description = "A ChatResponse, or text/event-stream when stream is true",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = ChatResponse.class)))
    public Response complete(ChatRequest body) {
        long userId = Callers.required(request).userId();
        var admitted = admitted(userId, body);
        if (body.streamed()) {
            // a Jersey ChunkedOutput, as smart-stream's: the events leave one by one, not held in a buffer
            var output = new ChunkedOutput<String>(String.class);
            startStream(userId, admitted, new StreamEvents(output));
            return Response.ok(output, MediaType.SERVER_SENT_EVENTS_TYPE).build();
        }
        return Response.ok(ChatResponse.from(chat.complete(userId, admitted.tier(), admitted.command())),
                MediaType.APPLICATION_JSON_TYPE).build();
    }

    @POST
    @Path("stream")
    @RequiresPermission("chat")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "Chat, streamed: events {type: content, content} (the first also message_id) then "
            + "{type: done, message_id} once the answer is saved. Quota and validation errors come before the "
            + "stream, as JSON. The answer is generated and cached even if the client goes away")
    @APIResponse(responseCode = "200", description = "text/event-stream")
    public void stream(ChatRequest body, @Context SseEventSink sink, @Context Sse sse) {
        long userId = Callers.required(request).userId();
        startStream(userId, admitted(userId, body), new StreamEvents(sink, sse));
    }

    /**
     * Starts the model on the streams executor and stores the turn meanwhile; a turn that cannot be stored is thrown
     * here, so the request answers it as JSON and the stream never begins.
     */
    private void startStream(long userId, Admitted admitted, StreamEvents events) {
        var started = chat.prepare(userId, admitted.tier(), admitted.command());
        // the model call starts while the turn is stored; its answer waits for the write (ChatService.stream)
        var stored = new CompletableFuture<Void>();
        streamInBackground(started, stored, events);
        try {
            chat.store(started);
            stored.complete(null);
        } catch (RuntimeException | Error e) {
            stored.completeExceptionally(e);
            throw e;
        }
    }

    /**
     * Spec 02's order: the model must be in the caller's tier (403, unknown names included) before the body is
     * validated; the daily counters are checked after validation, by the service.
     */
    private Admitted admitted(long userId, ChatRequest body) {
        Tier tier = quotas.allowed(userId, body == null ? null : body.model());
        if (body == null) {
            throw BusinessException.validation("body: must not be null");
        }
        var violations = validator.validate(body);
        if (!violations.isEmpty()) {
            throw new ConstraintViolationException(violations);
        }
        // read on every chat endpoint, so that a stream field that is no boolean is refused wherever it is sent
        body.streamed();
        return new Admitted(tier, body.toCommand());
    }

    /** A request past the model check: the caller's tier as read for it, and the command. */
    private record Admitted(Tier tier, ChatService.ChatCommand command) {
    }

    /**
     * Runs the model on a thread of the streams executor, sending each fragment as an event as it comes; the first
     * event carries the answer's {@code message_id}, so a client that loses the connection can resume. A client
     * that goes away does not stop the model: the answer is still generated, cached and saved.
     */
    private void streamInBackground(ChatService.Started started, CompletableFuture<?> stored, StreamEvents events) {
        String messageId = started.turn().assistantMessageId().toString();
        executor.execute(() -> {
            var first = new AtomicBoolean(true);
            boolean began = true;
            try {
                var reply = chat.stream(started, stored, delta -> events.send(first.getAndSet(false)
                        ? Map.of("type", "content", "content", delta, "message_id", messageId)
                        : Map.of("type", "content", "content", delta)));
                events.send(Map.of("type", "done", "message_id", reply.messageId().toString()));
            } catch (ChatService.NotStored e) {
                // the turn was not stored: the request answers with the reason, as JSON, and the stream never began
                began = false;
            } catch (RuntimeException e) {
                if (!(e instanceof BusinessException)) {
                    LOG.log(Level.SEVERE, "Chat stream failed", e);
                }
                events.error(e);
            } finally {
                if (began) {
                    events.close();
                }
            }
        });
    }

    /**
     * Smart-stream's answer when the work goes to a task: where to poll, the estimate, and the conversation the
     * answer will be stored in, as {@code message_id}.
     */
    public record SmartStreamTask(String taskId, String mode, double estimatedTime, String id, String href,
                                  String conversationId, String messageId) {
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
    public Response smartStream(ChatRequest body) {
        long userId = Callers.required(request).userId();
        var admitted = admitted(userId, body);
        var plan = chat.plan(userId, admitted.tier(), admitted.command());
        if (plan.task() != null) {
            String id = plan.task().id().toString();
            return Response.accepted(new SmartStreamTask(id, "async", plan.estimatedSeconds(), id, "/api/tasks/" + id,
                    plan.task().conversationId().toString(), plan.task().answerMessageId().toString()))
                    .type(MediaType.APPLICATION_JSON_TYPE).header("Location", "/api/tasks/" + id).build();
        }
        // a Jersey ChunkedOutput, not StreamingOutput: Jersey holds a StreamingOutput's first 8 KiB, flush or not
        var output = new ChunkedOutput<String>(String.class);
        streamInBackground(plan.started(), CompletableFuture.completedFuture(null), new StreamEvents(output));
        return Response.ok(output, MediaType.SERVER_SENT_EVENTS_TYPE).build();
    }

    @GET
    @Path("stream/resume/{message_id}")
    @RequiresPermission("chat")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "The rest of a streamed answer from last_offset, in 10-character chunks {content, offset}, "
            + "following an answer still being generated, then {type: done}; 404 once the cache expired or for "
            + "another user's message")
    @APIResponse(responseCode = "200", description = "text/event-stream")
    public void resume(@PathParam("message_id") String messageId, @QueryParam("last_offset") @DefaultValue("0")
            int lastOffset, @Context SseEventSink sink, @Context Sse sse) {
        if (lastOffset < 0) {
            throw BusinessException.validation("last_offset: must be 0 or more");
        }
        UUID id = PathIds.uuid(messageId, "Cached stream");
        long userId = Callers.required(request).userId();
        var cached = cache.read(id, userId).orElseThrow(() -> BusinessException.notFound("Cached stream"));
        var events = new StreamEvents(sink, sse);
        executor.execute(() -> follow(id, userId, lastOffset, cached, events));
    }

    /**
     * Sends the cached answer from {@code offset} in 10-character chunks and, while it is still being generated,
     * follows the cache (polling it every {@value #FOLLOW_POLL_MS} ms) until it is done; only whole chunks are sent
     * before that, so every chunk but the last is 10 characters. An answer whose cache has not changed for
     * {@code atrium.ai.stream-resume-stall-seconds} (its instance stopped) ends with an error event.
     */
    private void follow(UUID id, long userId, int offset, StreamCache.Cached first, StreamEvents events) {
        var cached = first;
        long changed = System.nanoTime();
        try {
            while (!events.gone()) {
                String content = cached.content();
                while (offset < content.length() && (cached.done() || offset + RESUME_CHUNK <= content.length())
                        && !events.gone()) {
                    events.send(Map.of("content", content.substring(offset, Math.min(content.length(),
                            offset + RESUME_CHUNK)), "offset", offset));
                    offset += RESUME_CHUNK;
                }
                if (cached.done()) {
                    events.send(Map.of("type", "done"));
                    return;
                }
                if (System.nanoTime() - changed > TimeUnit.SECONDS.toNanos(config.streamResumeStallSeconds)) {
                    events.error(new BusinessException(Problem.UNAVAILABLE,
                            "The answer is no longer being generated"));
                    return;
                }
                Thread.sleep(FOLLOW_POLL_MS);
                var next = cache.read(id, userId);
                if (next.isEmpty()) {
                    events.error(BusinessException.notFound("Cached stream"));
                    return;
                }
                if (!next.get().equals(cached)) {
                    changed = System.nanoTime();
                }
                cached = next.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Resuming a stream failed", e);
            events.error(e);
        } finally {
            events.close();
        }
    }
}
