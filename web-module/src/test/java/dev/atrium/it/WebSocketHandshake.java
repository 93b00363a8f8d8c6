package dev.atrium.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A WebSocket opening handshake sent over a plain socket, as a browser sends it, and the server's whole answer: a
 * refused handshake is an HTTP answer whose body the JDK's WebSocket client does not hand over. A 101 answer is read
 * up to its headers and the connection dropped.
 */
public final class WebSocketHandshake {

    private static final SecureRandom RANDOM = new SecureRandom();

    private WebSocketHandshake() {
    }

    /** {@code pathAndQuery} as it goes on the request line (already encoded); {@code bearer} may be null. */
    public static Reply send(String pathAndQuery, String bearer) throws IOException {
        return sendWithHeaders(pathAndQuery, bearer == null ? Map.of() : Map.of("Authorization", "Bearer " + bearer));
    }

    public static Reply sendWithHeaders(String pathAndQuery, Map<String, String> extraHeaders) throws IOException {
        URI base = URI.create(AtriumServer.get().baseUrl());
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        var request = new StringBuilder()
                .append("GET ").append(base.getRawPath()).append(pathAndQuery).append(" HTTP/1.1\r\n")
                .append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n")
                .append("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n")
                .append("Sec-WebSocket-Key: ").append(Base64.getEncoder().encodeToString(nonce)).append("\r\n");
        extraHeaders.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("\r\n");
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            List<String> head = head(in);
            String[] statusLine = head.get(0).split(" ", 3);
            int status = Integer.parseInt(statusLine[1]);
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String line : head.subList(1, head.size())) {
                int colon = line.indexOf(':');
                headers.computeIfAbsent(line.substring(0, colon).trim(), h -> new ArrayList<>())
                        .add(line.substring(colon + 1).trim());
            }
            String body = "";
            if (status != 101) {
                List<String> length = headers.get("Content-Length");
                body = new String(length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length.get(0))),
                        StandardCharsets.UTF_8);
            }
            return new Reply(status, HttpHeaders.of(headers, (name, value) -> true), body);
        }
    }

    /** Whether the answer upgraded the connection: 101 with the WebSocket headers. */
    public static boolean upgraded(Reply reply) {
        return reply.status() == 101
                && "websocket".equals(String.valueOf(reply.header("Upgrade")).toLowerCase(Locale.ROOT));
    }

    private static List<String> head(InputStream in) throws IOException {
        var lines = new ArrayList<String>();
        var line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n' && previous == '\r') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                text = text.substring(0, text.length() - 1);
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
                line.reset();
            } else {
                line.write(b);
            }
            previous = b;
        }
        throw new IOException("The connection closed inside the answer's head: " + lines);
    }
}
