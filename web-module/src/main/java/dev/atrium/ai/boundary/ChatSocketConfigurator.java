package dev.atrium.ai.boundary;

import java.util.List;

import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;

/** Hands the handshake's {@code Authorization} header to the endpoint, which checks it when the connection opens. */
public class ChatSocketConfigurator extends ServerEndpointConfig.Configurator {

    static final String AUTHORIZATION = "atrium.authorization";

    @Override
    public void modifyHandshake(ServerEndpointConfig config, HandshakeRequest request, HandshakeResponse response) {
        List<String> header = request.getHeaders().get("Authorization");
        if (header != null && !header.isEmpty()) {
            config.getUserProperties().put(AUTHORIZATION, header.get(0));
        } else {
            config.getUserProperties().remove(AUTHORIZATION);
        }
    }
}
