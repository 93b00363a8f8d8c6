package dev.atrium.ai.boundary.chat;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;

/**
 * The live chat WebSocket of each user on this instance: one per user id, a new connection replacing (and closing)
 * the old one; a connection leaves the registry when it closes. Also runs the streams, off the container's threads
 * ({@link StreamThreads}).
 */
@ApplicationScoped
public class ChatSockets {

    private final Map<Long, Session> live = new ConcurrentHashMap<>();

    @Inject
    StreamThreads executor;

    public void register(long userId, Session session) {
        Session previous = live.put(userId, session);
        if (previous != null && previous != session && previous.isOpen()) {
            try {
                previous.close(new CloseReason(CloseReason.CloseCodes.NORMAL_CLOSURE,
                        "Replaced by a newer connection"));
            } catch (IOException ignored) {
                // it is going away either way
            }
        }
    }

    public void remove(long userId, Session session) {
        live.remove(userId, session);
    }

    public int count() {
        return live.size();
    }

    void run(Runnable work) {
        executor.execute(work);
    }
}
