package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 49: what the container answers by itself. Hostile bytes sent over a raw socket (a table, then a seeded
 * random loop over header values) never get a 500 or an HTML page: a request that reaches an application gets its
 * error in the JSON envelope (Atrium's, or the reports portal's under {@code /reports}); one that Grizzly's HTTP
 * parser refuses before any application sees it gets the parser's bare status line with an empty body (README, "Known
 * limitations": Payara has no hook there).
 */
@ExtendWith(AtriumServer.class)
class ContainerErrorsIT {

    /** Requests that reach the web application: each answers its status in the envelope. */
    static final Map<String, Integer> REACHING = new LinkedHashMap<>();

    static {
        REACHING.put("GET /no/such/path HTTP/1.1", 404);
        REACHING.put("GET /WEB-INF/web.xml HTTP/1.1", 404);
        REACHING.put("GET /META-INF/MANIFEST.MF HTTP/1.1", 404);
        REACHING.put("GET /webjars/swagger-ui/5.34.1/index.html HTTP/1.1", 404);
        REACHING.put("GET /webjars/swagger-ui/5.34.1/swagger-initializer.js HTTP/1.1", 404);
        REACHING.put("DELETE /health HTTP/1.1", 405);
        REACHING.put("PATCH /openapi HTTP/1.1", 405);
        REACHING.put("GET /error-envelope HTTP/1.1", 404);
    }

    /** Requests Grizzly's parser refuses, and the status it answers. */
    static final Map<String, byte[]> REFUSED = new LinkedHashMap<>();

    static {
        REFUSED.put("a non-ASCII byte in Authorization", request("GET /api/v1/me HTTP/1.1",
                "Authorization: Bearer \u00e9"));
        REFUSED.put("a control byte in a header", request("GET /health HTTP/1.1", "X-Note: a\u0001b"));
        REFUSED.put("HTTP/9.9", request("GET /health HTTP/9.9"));
        REFUSED.put("a 20 000-byte path", request("GET /" + "a".repeat(20_000) + " HTTP/1.1"));
        REFUSED.put("a 20 000-byte header", request("GET /health HTTP/1.1", "X-Big: " + "a".repeat(20_000)));
        REFUSED.put("a Content-Length that is no number", request("POST /login HTTP/1.1", "Content-Length: abc"));
        REFUSED.put("a non-ASCII byte in the path", request("GET /\u00e9 HTTP/1.1"));
        REFUSED.put("an encoded NUL in the path", request("GET /%00 HTTP/1.1"));
        REFUSED.put("a path above the root", request("GET /../../etc/passwd HTTP/1.1"));
        REFUSED.put("TRACE", request("TRACE /health HTTP/1.1"));
        REFUSED.put("HTTP/1.1 without Host", "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
    }

    record Raw(int status, Map<String, String> headers, String body) {
        boolean envelope() {
            return headers.getOrDefault("content-type", "").startsWith("application/json")
                    && body.startsWith("{\"error\":{\"code\":") && body.contains("\"message\":");
        }

        /** Grizzly's own refusal: a status line, Content-Length 0, and nothing the application would have added. */
        boolean parserRefusal() {
            return body.isEmpty() && "0".equals(headers.get("content-length"))
                    && !headers.containsKey("x-request-id") && status >= 400 && status != 500;
        }

        boolean html() {
            return headers.getOrDefault("content-type", "").contains("html") || body.contains("<html")
                    || body.contains("<!DOCTYPE");
        }
    }

    @Test
    void whenAContainerErrorHappensInsideTheApplicationThenItIsAnsweredInTheEnvelope() throws Exception {
        var soft = new SoftAssertions();
        for (var entry : REACHING.entrySet()) {
            Raw reply = send(request(entry.getKey()));
            soft.assertThat(reply.status()).as(entry.getKey()).isEqualTo(entry.getValue());
            soft.assertThat(reply.envelope()).as("%s answers the envelope: %s", entry.getKey(), reply).isTrue();
            soft.assertThat(reply.body()).as(entry.getKey()).contains("\"code\":" + entry.getValue() + "00");
        }
        soft.assertAll();
    }

    @Test
    void whenTheParserRefusesHostileBytesThenTheAnswerIsItsStatusNeverHtmlNorAFiveHundred() throws Exception {
        var soft = new SoftAssertions();
        for (var entry : REFUSED.entrySet()) {
            Raw reply = send(entry.getValue());
            soft.assertThat(reply.status()).as(entry.getKey()).isBetween(400, 505).isNotEqualTo(500);
            soft.assertThat(reply.html()).as("%s: %s", entry.getKey(), reply).isFalse();
            soft.assertThat(reply.envelope() || reply.parserRefusal()).as("%s: %s", entry.getKey(), reply).isTrue();
        }
        soft.assertAll();
    }

    @Test
    void whenHeaderValuesAreRandomBytesThenNoAnswerIsAFiveHundredOrHtmlAndTheApplicationsAreEnvelopes()
            throws Exception {
        var random = new Random(49);
        List<String> names = List.of("Authorization", "Cookie", "X-Request-ID", "Accept", "Content-Type",
                "X-Forwarded-For", "Origin", "X-Note");
        List<String> targets = List.of("GET /health", "GET /api/v1/me", "GET /no/such/path", "POST /login",
                "GET /openapi/ui", "GET /reports/nothing");
        var soft = new SoftAssertions();
        int envelopes = 0;
        int refusals = 0;
        for (int i = 0; i < 300; i++) {
            // half of the values printable ASCII (they reach the applications), half any byte but CR and LF
            boolean printable = random.nextBoolean();
            byte[] value = new byte[1 + random.nextInt(40)];
            for (int b = 0; b < value.length; b++) {
                int next;
                do {
                    next = printable ? 0x20 + random.nextInt(0x5f) : random.nextInt(256);
                } while (next == '\r' || next == '\n');
                value[b] = (byte) next;
            }
            String target = targets.get(random.nextInt(targets.size()));
            String name = names.get(random.nextInt(names.size()));
            var out = new ByteArrayOutputStream();
            out.writeBytes((target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 0\r\n"
                    + name + ": ").getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(value);
            out.writeBytes("\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            Raw reply = send(out.toByteArray());
            String what = "#" + i + " " + target + " " + name + ": " + hex(value) + " -> " + reply;
            soft.assertThat(reply.status()).as(what).isNotEqualTo(500).isPositive();
            if (reply.status() >= 400) {
                soft.assertThat(reply.html()).as(what).isFalse();
                soft.assertThat(reply.envelope() || reply.parserRefusal()).as(what).isTrue();
                if (reply.envelope()) {
                    envelopes++;
                } else {
                    refusals++;
                }
            }
        }
        System.out.printf("Random header values: %d errors in the envelope, %d refused by the parser%n", envelopes,
                refusals);
        soft.assertAll();
        assertThat(envelopes).as("errors the applications answered").isPositive();
    }

    static byte[] request(String line, String... headers) {
        var text = new StringBuilder(line).append("\r\nHost: localhost\r\nConnection: close\r\n");
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        return text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    static Raw send(byte[] request) throws IOException {
        URI base = URI.create(AtriumServer.get().baseUrl());
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        var out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException | java.net.SocketException e) {
            // what came before a reset or a silent server is the answer
        }
        return out.toByteArray();
    }

    private static Raw parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || end < 0) {
            return new Raw(0, Map.of(), text);
        }
        String[] head = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(head[0].split(" ")[1]);
        var headers = new LinkedHashMap<String, String>();
        for (int i = 1; i < head.length; i++) {
            int colon = head[i].indexOf(':');
            headers.put(head[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    head[i].substring(colon + 1).trim());
        }
        String body = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Raw(status, headers, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String dechunk(String chunked) {
        var out = new StringBuilder();
        int at = 0;
        while (true) {
            int line = chunked.indexOf("\r\n", at);
            if (line < 0) {
                return out.toString();
            }
            int size = Integer.parseInt(chunked.substring(at, line).split(";")[0].trim(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(chunked, line + 2, line + 2 + size);
            at = line + 2 + size + 2;
        }
    }

    private static String hex(byte[] bytes) {
        var out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02x", b & 0xff));
        }
        return out.toString();
    }
}
