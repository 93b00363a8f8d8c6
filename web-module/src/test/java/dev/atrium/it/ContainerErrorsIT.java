package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.platform.container.Refusal;

/**
 * Issue 49: what the container answers by itself. Hostile bytes sent over a raw socket (tables, then a seeded random
 * loop over header values) never get a 500, an HTML page or an empty body: a request that reaches an application gets
 * its error in the JSON envelope (Atrium's, or the reports portal's under {@code /reports}); one that Grizzly's HTTP
 * parser refuses before any application sees it gets the parser's status in the same envelope, from the module
 * grizzly-envelope (docs/operations.md, "Refusals of the HTTP parser"), and the connection closes. Everything else is
 * answered as on a listener without the module: ordinary HTTP/1.1, the JDK client's h2c offer (body and all), h2c
 * with prior knowledge. The HTTPS listener ({@code --sslport}) answers the same refusals in the envelope over TLS, and
 * the JDK client's default HTTP/2 there comes through ALPN ({@code h2}) as without the module.
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

    record Refused(byte[] request, int status) {
    }

    /** Requests Grizzly's HTTP parser refuses, and the status it answers (in the envelope). */
    static final Map<String, Refused> PARSER = new LinkedHashMap<>();

    static {
        PARSER.put("0xE9 in Authorization", new Refused(request("GET /api/v1/me HTTP/1.1",
                "Authorization: Bearer caf\u00e9"), 400));
        PARSER.put("0xFF in another header", new Refused(request("GET /health HTTP/1.1", "Accept: a\u00ffb"), 400));
        PARSER.put("0x01 in a header", new Refused(request("GET /health HTTP/1.1", "X-Note: a\u0001b"), 400));
        PARSER.put("0x7F in a header", new Refused(request("GET /health HTTP/1.1", "X-Note: a\u007fb"), 400));
        PARSER.put("a space in a header name", new Refused(request("GET /health HTTP/1.1", "X Note: a"), 400));
        PARSER.put("a 20 000-byte header", new Refused(request("GET /health HTTP/1.1",
                "X-Big: " + "a".repeat(20_000)), 400));
        PARSER.put("300 headers of 100 bytes", new Refused(request("GET /health HTTP/1.1",
                java.util.stream.IntStream.range(0, 300).mapToObj(i -> "X-H" + i + ": " + "b".repeat(94))
                        .toArray(String[]::new)), 400));
        PARSER.put("a 20 000-byte path", new Refused(request("GET /" + "a".repeat(20_000) + " HTTP/1.1"), 400));
        PARSER.put("HTTP/9.9", new Refused(request("GET /health HTTP/9.9"), 505));
        PARSER.put("a request line of four parts", new Refused(request("GET /health x HTTP/1.1"), 505));
        PARSER.put("a Content-Length that is no number", new Refused(request("POST /login HTTP/1.1",
                "Content-Length: abc"), 400));
        PARSER.put("Transfer-Encoding beside Content-Length", new Refused(request("POST /login HTTP/1.1",
                "Transfer-Encoding: chunked", "Content-Length: 3"), 400));
    }

    /**
     * Hostile requests the web container refuses before any application (a path it cannot decode, TRACE), and one the
     * parser lets through to the application: each answers in the envelope.
     */
    static final Map<String, byte[]> CONTAINER = new LinkedHashMap<>();

    static {
        CONTAINER.put("a non-ASCII byte in the path", request("GET /\u00e9 HTTP/1.1"));
        CONTAINER.put("an encoded NUL in the path", request("GET /%00 HTTP/1.1"));
        CONTAINER.put("a path above the root", request("GET /../../etc/passwd HTTP/1.1"));
        CONTAINER.put("TRACE", request("TRACE /health HTTP/1.1"));
        CONTAINER.put("HTTP/1.1 without Host", "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        CONTAINER.put("an obs-fold line (unfolded by the parser, RFC 9112 5.2)", request("GET /no/such/path HTTP/1.1",
                "X-Note: a", " b"));
    }

    record Raw(int status, Map<String, String> headers, String body, boolean closed) {
        boolean envelope() {
            return headers.getOrDefault("content-type", "").startsWith("application/json")
                    && body.startsWith("{\"error\":{\"code\":") && body.contains("\"message\":");
        }

        /** An answer of the application (or of the web container in it): it carries a request id. */
        boolean fromApplication() {
            return headers.containsKey("x-request-id");
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
    void whenTheParserRefusesHostileBytesThenItsStatusAnswersInTheEnvelopeAndTheConnectionCloses() throws Exception {
        var soft = new SoftAssertions();
        for (var entry : PARSER.entrySet()) {
            Raw reply = send(entry.getValue().request());
            int status = entry.getValue().status();
            soft.assertThat(reply.status()).as("%s: %s", entry.getKey(), reply).isEqualTo(status);
            soft.assertThat(reply.envelope()).as("%s answers the envelope: %s", entry.getKey(), reply).isTrue();
            soft.assertThat(reply.body()).as(entry.getKey())
                    .startsWith("{\"error\":{\"code\":" + (status >= 500 ? 50000 : 40000) + ",");
            soft.assertThat(reply.headers()).as(entry.getKey()).containsEntry("connection", "close")
                    .containsEntry("content-length",
                            Integer.toString(reply.body().getBytes(StandardCharsets.UTF_8).length));
            soft.assertThat(reply.closed()).as("%s: the server closes the connection", entry.getKey()).isTrue();
        }
        soft.assertAll();
    }

    @Test
    void whenTheWebContainerRefusesHostileBytesThenItsStatusAnswersInTheEnvelope() throws Exception {
        var soft = new SoftAssertions();
        for (var entry : CONTAINER.entrySet()) {
            Raw reply = send(entry.getValue());
            soft.assertThat(reply.status()).as(entry.getKey()).isBetween(400, 505).isNotEqualTo(500);
            soft.assertThat(reply.html()).as("%s: %s", entry.getKey(), reply).isFalse();
            soft.assertThat(reply.envelope()).as("%s: %s", entry.getKey(), reply).isTrue();
        }
        soft.assertAll();
    }

    @Test
    void whenARequestLineIsOneWordThenTheParserWaitsForMoreAndAnswersNothingBare() throws Exception {
        // Grizzly reads a line without spaces as the start of a longer request line and answers nothing until its
        // header limit (the 20 000-byte path above) or the connection's idle timeout
        Raw reply = send("GARBAGE\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 3_000);
        assertThat(reply.status()).as("%s", reply).isZero();
        assertThat(reply.body()).isEmpty();
    }

    @Test
    void whenHeaderValuesAreRandomBytesThenEveryErrorIsAnEnvelopeNeverBareNorAFiveHundred() throws Exception {
        var random = new Random(49);
        List<String> names = List.of("Authorization", "Cookie", "X-Request-ID", "Accept", "Content-Type",
                "X-Forwarded-For", "Origin", "X-Note");
        List<String> targets = List.of("GET /health", "GET /api/v1/me", "GET /no/such/path", "POST /login",
                "GET /openapi/ui", "GET /reports/nothing");
        var soft = new SoftAssertions();
        int applications = 0;
        int parser = 0;
        for (int i = 0; i < 300; i++) {
            boolean refused = false;
            // half of the values printable ASCII (they reach the applications), half any byte but CR and LF
            boolean printable = random.nextBoolean();
            byte[] value = new byte[1 + random.nextInt(40)];
            for (int b = 0; b < value.length; b++) {
                int next;
                do {
                    next = printable ? 0x20 + random.nextInt(0x5f) : random.nextInt(256);
                } while (next == '\r' || next == '\n');
                value[b] = (byte) next;
                // RFC 9110's field-vchar, SP and HTAB pass the parser; every other byte is refused
                refused |= next != '\t' && (next < 0x20 || next > 0x7e);
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
            if (refused) {
                parser++;
                soft.assertThat(reply.status()).as(what).isEqualTo(400);
                soft.assertThat(reply.body()).as(what).isEqualTo(Refusal.body(400));
                soft.assertThat(reply.closed()).as(what).isTrue();
            } else if (reply.status() >= 400) {
                applications++;
            }
            if (reply.status() >= 400) {
                soft.assertThat(reply.html()).as(what).isFalse();
                soft.assertThat(reply.envelope()).as(what).isTrue();
            }
        }
        System.out.printf("Random header values: %d errors from the applications, %d from the parser, all in the"
                + " envelope%n", applications, parser);
        soft.assertAll();
        assertThat(applications).as("errors the applications answered").isPositive();
        assertThat(parser).as("errors the parser answered").isPositive();
    }

    @Test
    void whenRequestsAreOrdinaryThenTheirAnswersPassUntouchedKeepAliveAndChunkedAlike() throws Exception {
        URI base = URI.create(AtriumServer.get().baseUrl());
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            // three requests on one connection, the second pipelined behind the first
            socket.getOutputStream().write(("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "HEAD /no/such/path HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            var in = socket.getInputStream();
            Raw health = readOne(in, false);
            assertThat(health.status()).as("%s", health).isEqualTo(200);
            assertThat(health.fromApplication()).isTrue();
            Raw head = readOne(in, true);
            assertThat(head.status()).as("%s", head).isEqualTo(404);
            assertThat(head.body()).as("a HEAD answer has no body").isEmpty();
            assertThat(Integer.parseInt(head.headers().get("content-length"))).as("%s", head).isPositive();
            socket.getOutputStream().write("GET /openapi HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            Raw document = parse(readAll(in).bytes(), true);
            assertThat(document.status()).as("%s", document.headers()).isEqualTo(200);
            assertThat(document.headers()).as("the API document is streamed")
                    .containsEntry("transfer-encoding", "chunked");
            assertThat(document.body()).startsWith("{").endsWith("}").contains("\"openapi\"");
        }
    }

    @Test
    void whenTheJdkClientSpeaksItsDefaultHttp2ThenAPostWithABodyAndAGetAreAnsweredOverH2c() throws Exception {
        // the JDK's client (the SDK's, the CLI's) offers h2c with its first request on a connection, body and all;
        // behind port unification without HTTP/2 such a request waited for ever (the codec took its body for the
        // upgraded protocol's bytes)
        String base = AtriumServer.get().baseUrl();
        HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/login")).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"nobody@example.com\",\"password\":\"x\"}"))
                .build();
        HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(20))
                .build();
        for (List<HttpRequest> order : List.of(List.of(post, get), List.of(get, post))) {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_2);
            for (HttpRequest request : order) {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                String what = request.method() + " " + request.uri().getPath() + " -> " + response.statusCode() + " "
                        + response.body();
                assertThat(response.version()).as(what).isEqualTo(HttpClient.Version.HTTP_2);
                if (request == post) {
                    assertThat(response.statusCode()).as(what).isEqualTo(401);
                    assertThat(response.body()).as(what).startsWith("{\"error\":{\"code\":");
                } else {
                    assertThat(response.statusCode()).as(what).isEqualTo(200);
                }
            }
        }
    }

    @Test
    void whenAClientSpeaksH2cWithPriorKnowledgeThenTheServerAnswersWithItsSettings() throws Exception {
        URI base = URI.create(AtriumServer.get().baseUrl());
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            // the connection preface, then an empty SETTINGS frame (length 0, type 4, no flags, stream 0)
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
            socket.getOutputStream().flush();
            byte[] frame = socket.getInputStream().readNBytes(9);
            assertThat(frame).as("the header of the server's first HTTP/2 frame").hasSize(9);
            assertThat(frame[3]).as("a SETTINGS frame").isEqualTo((byte) 4);
            assertThat(frame[4] & 1).as("not an acknowledgement: the server's own settings").isZero();
        }
    }

    @Test
    void whenTheParserRefusesHostileBytesOverTlsThenItsStatusAnswersInTheEnvelopeAndTheConnectionCloses()
            throws Exception {
        var soft = new SoftAssertions();
        for (var entry : PARSER.entrySet()) {
            Raw reply = sendTls(entry.getValue().request());
            int status = entry.getValue().status();
            soft.assertThat(reply.status()).as("%s over TLS: %s", entry.getKey(), reply).isEqualTo(status);
            soft.assertThat(reply.envelope()).as("%s over TLS answers the envelope: %s", entry.getKey(), reply)
                    .isTrue();
            soft.assertThat(reply.body()).as(entry.getKey()).isEqualTo(Refusal.body(status));
            soft.assertThat(reply.headers()).as(entry.getKey()).containsEntry("connection", "close")
                    .containsEntry("content-length",
                            Integer.toString(reply.body().getBytes(StandardCharsets.UTF_8).length));
            soft.assertThat(reply.closed()).as("%s over TLS: the server closes the connection", entry.getKey())
                    .isTrue();
        }
        soft.assertAll();
    }

    @Test
    void whenTheWebContainerRefusesHostileBytesOverTlsThenItsStatusAnswersInTheEnvelope() throws Exception {
        var soft = new SoftAssertions();
        for (var entry : CONTAINER.entrySet()) {
            Raw reply = sendTls(entry.getValue());
            soft.assertThat(reply.status()).as(entry.getKey()).isBetween(400, 505).isNotEqualTo(500);
            soft.assertThat(reply.html()).as("%s over TLS: %s", entry.getKey(), reply).isFalse();
            soft.assertThat(reply.envelope()).as("%s over TLS: %s", entry.getKey(), reply).isTrue();
        }
        soft.assertAll();
    }

    @Test
    void whenRequestsAreOrdinaryOverTlsThenTheApplicationAnswersThemUntouched() throws Exception {
        Raw health = sendTls(request("GET /health HTTP/1.1"));
        assertThat(health.status()).as("%s", health).isEqualTo(200);
        assertThat(health.fromApplication()).isTrue();
        Raw missing = sendTls(request("GET /no/such/path HTTP/1.1"));
        assertThat(missing.status()).as("%s", missing).isEqualTo(404);
        assertThat(missing.fromApplication()).isTrue();
        assertThat(missing.envelope()).isTrue();
    }

    @Test
    void whenAClientOffersH2OverAlpnThenTheHttpsListenerChoosesIt() throws Exception {
        URI base = URI.create(AtriumServer.get().httpsUrl());
        try (var socket = (SSLSocket) trustAll().getSocketFactory().createSocket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            var parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
        }
    }

    @Test
    void whenTheJdkClientSpeaksItsDefaultHttp2OverTlsThenAPostWithABodyAndAGetAreAnsweredOverH2() throws Exception {
        String base = AtriumServer.get().httpsUrl();
        HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/login")).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"nobody@example.com\",\"password\":\"x\"}"))
                .build();
        HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(20))
                .build();
        for (List<HttpRequest> order : List.of(List.of(post, get), List.of(get, post))) {
            HttpClient client = HttpClient.newBuilder().sslContext(trustAll())
                    .connectTimeout(Duration.ofSeconds(10)).build();
            assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_2);
            for (HttpRequest request : order) {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                String what = request.method() + " " + request.uri() + " -> " + response.statusCode() + " "
                        + response.body();
                assertThat(response.version()).as(what).isEqualTo(HttpClient.Version.HTTP_2);
                if (request == post) {
                    assertThat(response.statusCode()).as(what).isEqualTo(401);
                    assertThat(response.body()).as(what).startsWith("{\"error\":{\"code\":");
                } else {
                    assertThat(response.statusCode()).as(what).isEqualTo(200);
                }
            }
        }
    }

    /** The test server's self-signed key, trusted as it is (its name, localhost, is still checked by the client). */
    static SSLContext trustAll() throws Exception {
        var trust = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                // trusted
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                // trusted
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {trust}, null);
        return context;
    }

    static Raw sendTls(byte[] request) throws Exception {
        URI base = URI.create(AtriumServer.get().httpsUrl());
        try (var socket = trustAll().getSocketFactory().createSocket(base.getHost(), base.getPort())) {
            return exchange(socket, request, 10_000);
        }
    }

    static byte[] request(String line, String... headers) {
        var text = new StringBuilder(line).append("\r\nHost: localhost\r\nConnection: close\r\n");
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        return text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    static Raw send(byte[] request) throws IOException {
        return send(request, 10_000);
    }

    static Raw send(byte[] request, int timeoutMillis) throws IOException {
        URI base = URI.create(AtriumServer.get().baseUrl());
        try (var socket = new Socket(base.getHost(), base.getPort())) {
            return exchange(socket, request, timeoutMillis);
        }
    }

    private static Raw exchange(Socket socket, byte[] request, int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        socket.getOutputStream().write(request);
        socket.getOutputStream().flush();
        Read read = readAll(socket.getInputStream());
        return parse(read.bytes(), read.closed());
    }

    record Read(byte[] bytes, boolean closed) {
    }

    /** Everything until the server closes the connection (closed) or stays silent for the socket's timeout. */
    private static Read readAll(InputStream in) throws IOException {
        var out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
            return new Read(out.toByteArray(), true);
        } catch (SocketTimeoutException e) {
            return new Read(out.toByteArray(), false);
        } catch (java.net.SocketException | javax.net.ssl.SSLException e) {
            // a reset after the answer, or TLS's end without its close_notify: closed too
            return new Read(out.toByteArray(), true);
        }
    }

    /** One answer from a connection that stays open: its head, then its body by Content-Length (none for HEAD). */
    private static Raw readOne(InputStream in, boolean head) throws IOException {
        var out = new ByteArrayOutputStream();
        while (!out.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            out.write(b);
        }
        Raw start = parse(out.toByteArray(), false);
        if (!head) {
            out.writeBytes(in.readNBytes(Integer.parseInt(start.headers().getOrDefault("content-length", "0"))));
        }
        return parse(out.toByteArray(), false);
    }

    private static Raw parse(byte[] raw, boolean closed) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || end < 0) {
            return new Raw(0, Map.of(), text, closed);
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
        return new Raw(status, headers, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8),
                closed);
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
