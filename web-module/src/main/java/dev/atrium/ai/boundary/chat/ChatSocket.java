package dev.atrium.ai.boundary.chat;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;

import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.UsageLedger;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.ai.control.models.ModelGateway;
import dev.atrium.ai.entity.Tier;
import dev.atrium.identity.control.Caller;
import dev.atrium.platform.boundary.json.Json;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Spec 02's chat WebSocket. {@link ChatSocketGate} authenticates the handshake (bearer token or API key in the
 * {@code Authorization} header, or for browsers, which cannot set headers on WebSockets, a short-lived access token
 * in the {@code token} query parameter, never an API key) and checks the path's user id is the caller's; the
 * connection opens with that caller as its user principal. The client sends {@code {messages: [{role, content}],
 * model?}}; the server answers {@code {type: content, content}} fragments, then {@code {type: done}}, or
 * {@code {type: error, error}}.
 */
@ServerEndpoint("/ws/chat/{user_id}")
public class ChatSocket {

    static final String CALLER = "atrium.caller";
    static final String BUSY = "atrium.busy";
    static final int MAX_MESSAGE = 10_000;
    static final Set<String> ROLES = Set.of("system", "user", "assistant");

    @Inject
    ChatSockets sockets;

    @Inject
    QuotaService quotas;

    @Inject
    ModelGateway models;

    @EJB
    UsageLedger ledger;

    @OnOpen
    public void open(Session session) {
        if (!(session.getUserPrincipal() instanceof ChatSocketGate.Admitted admitted)) {
            // every handshake passes the gate first; this is a misconfigured deployment, never a caller's mistake
            refuse(session, "Authentication required");
            return;
        }
        Caller caller = admitted.caller();
        session.getUserProperties().put(CALLER, caller);
        session.getUserProperties().put(BUSY, new AtomicBoolean());
        sockets.register(caller.userId(), session);
    }

    @OnMessage
    public void message(String text, Session session) {
        if (!(session.getUserProperties().get(CALLER) instanceof Caller caller)) {
            return;
        }
        var busy = (AtomicBoolean) session.getUserProperties().get(BUSY);
        List<ChatTurn> turns;
        QuotaService.Admission admission;
        try {
            JsonObject request = parse(text);
            Tier tier = quotas.allowed(caller.userId(), modelOf(request));
            turns = turns(request);
            if (!busy.compareAndSet(false, true)) {
                throw new BusinessException(Problem.CONFLICT,
                        "An answer is still streaming on this connection");
            }
            admission = admitOrRelease(caller, tier, request, busy);
        } catch (BusinessException e) {
            send(session, error(e));
            return;
        }
        try {
            stream(session, caller, admission, turns, busy);
        } catch (BusinessException e) {
            busy.set(false);
            send(session, error(e));
        }
    }

    private void stream(Session session, Caller caller, QuotaService.Admission admission, List<ChatTurn> turns,
                        AtomicBoolean busy) {
        sockets.run(() -> {
            try {
                var usage = models.stream(admission.model(), turns,
                        delta -> send(session, Map.of("type", "content", "content", delta)), () -> !session.isOpen());
                quotas.consumed(caller.userId(), usage.total());
                ledger.record(caller.userId(), admission.model(), "websocket", usage);
                send(session, Map.of("type", "done"));
            } catch (BusinessException e) {
                send(session, error(e));
            } catch (RuntimeException e) {
                send(session, Map.of("type", "error", "error", Map.of("code", 50000,
                        "message", "Internal server error")));
            } finally {
                busy.set(false);
            }
        });
    }

    @OnClose
    public void close(Session session) {
        if (session.getUserProperties().get(CALLER) instanceof Caller caller) {
            sockets.remove(caller.userId(), session);
        }
    }

    @OnError
    public void failed(Session session, Throwable error) {
        close(session);
    }

    private QuotaService.Admission admitOrRelease(Caller caller, Tier tier, JsonObject request, AtomicBoolean busy) {
        try {
            return quotas.admit(caller.userId(), tier, modelOf(request));
        } catch (BusinessException e) {
            busy.set(false);
            throw e;
        }
    }

    private static String modelOf(JsonObject request) {
        return request.get("model") instanceof JsonString m ? m.getString() : null;
    }

    private static JsonObject parse(String text) {
        try (var reader = JSON.createReader(new StringReader(text))) {
            if (reader.readValue() instanceof JsonObject o) {
                return o;
            }
        } catch (RuntimeException e) {
            throw BusinessException.badRequest("Not JSON: send {\"messages\": [{\"role\", \"content\"}]}");
        }
        throw BusinessException.validation("body: a JSON object with messages is required");
    }

    private static List<ChatTurn> turns(JsonObject request) {
        if (!(request.get("messages") instanceof JsonArray messages) || messages.isEmpty()) {
            throw BusinessException.validation("messages: at least one {role, content}");
        }
        var turns = new ArrayList<ChatTurn>();
        for (int i = 0; i < messages.size(); i++) {
            if (!(messages.get(i) instanceof JsonObject m) || !(m.get("role") instanceof JsonString role)
                    || !(m.get("content") instanceof JsonString content) || !ROLES.contains(role.getString())
                    || content.getString().isEmpty() || content.getString().length() > MAX_MESSAGE) {
                throw BusinessException.validation("messages[" + i + "]: role (system, user or assistant) and "
                        + "content (1 to " + MAX_MESSAGE + " characters) are required");
            }
            turns.add(new ChatTurn(role.getString(), content.getString()));
        }
        return turns;
    }

    private static Map<String, Object> error(BusinessException e) {
        var error = new LinkedHashMap<String, Object>();
        error.put("code", e.problem().code());
        error.put("message", e.getMessage());
        error.put("details", e.details());
        return Map.of("type", "error", "error", error);
    }

    private static void send(Session session, Map<String, ?> data) {
        if (!session.isOpen()) {
            return;
        }
        synchronized (session) {
            try {
                session.getBasicRemote().sendText(Json.write(data));
            } catch (IOException | IllegalStateException e) {
                // the client went away; the stream notices through isOpen()
            }
        }
    }

    private void refuse(Session session, String reason) {
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, reason));
        } catch (IOException | IllegalStateException e) {
            // the client is gone already
        }
    }
}
