package dev.atrium.platform.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

class RefusalTest {

    /** What Grizzly's codec wrote for a non-ASCII byte in a header (Payara Micro 6.2025.10, by a raw socket). */
    static final String CODEC_400 = "HTTP/1.1 400 Bad Request\r\nDate: Sun, 29 Nov 2026 01:45:06 GMT\r\n"
            + "Connection: close\r\nContent-Length: 0\r\nX-Frame-Options: SAMEORIGIN\r\n\r\n";
    static final String CODEC_505 = "HTTP/1.1 505 HTTP Version Not Supported\r\nServer: Payara Micro\r\n"
            + "Date: Sun, 29 Nov 2026 01:42:59 GMT\r\nContent-Length: 0\r\nConnection: close\r\n"
            + "X-Frame-Options: SAMEORIGIN\r\n\r\n";

    @Test
    void whenTheCodecRefusesARequestThenTheSameStatusAnswersInTheEnvelope() {
        String answer = text(Refusal.envelope(bytes(CODEC_400), true));
        String body = "{\"error\":{\"code\":40000,\"details\":null,\"doc_url\":null,"
                + "\"message\":\"Malformed request\"}}";
        assertThat(answer).isEqualTo("HTTP/1.1 400 Bad Request\r\nDate: Sun, 29 Nov 2026 01:45:06 GMT\r\n"
                + "X-Frame-Options: SAMEORIGIN\r\nContent-Type: application/json;charset=UTF-8\r\n"
                + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body);
    }

    @Test
    void whenTheCodecRefusesAVersionThenItsStatusStaysAndTheEnvelopeSaysSo() {
        String answer = text(Refusal.envelope(bytes(CODEC_505), true));
        assertThat(answer).startsWith("HTTP/1.1 505 HTTP Version Not Supported\r\nServer: Payara Micro\r\n")
                .contains("\r\nContent-Type: application/json;charset=UTF-8\r\n", "\r\nConnection: close\r\n")
                .endsWith("\r\n\r\n{\"error\":{\"code\":50000,\"details\":null,\"doc_url\":null,"
                        + "\"message\":\"Internal server error\"}}");
        assertThat(answer).containsOnlyOnce("Connection:").containsOnlyOnce("Content-Length:");
    }

    /** What Payara's web container wrote for a path it cannot decode ({@code GET /%00}), before any application. */
    static final String CONTAINER_400 = "HTTP/1.1 400 Bad Request\r\nServer: Payara Micro\r\nConnection: close\r\n"
            + "Content-Length: 0\r\nX-Frame-Options: SAMEORIGIN\r\n\r\n";

    @Test
    void whenTheWebContainerAnswersABareErrorThenItsStatusAndConnectionStayInTheEnvelope() {
        String answer = text(Refusal.envelope(bytes(CONTAINER_400), false));
        assertThat(answer).startsWith("HTTP/1.1 400 Bad Request\r\nServer: Payara Micro\r\nConnection: close\r\n"
                + "X-Frame-Options: SAMEORIGIN\r\nContent-Type: application/json;charset=UTF-8\r\n")
                .endsWith("\r\n\r\n" + Refusal.body(400)).containsOnlyOnce("Connection:");
        String keptAlive = text(Refusal.envelope(bytes("HTTP/1.1 405 Method Not Allowed\r\nAllow: OPTIONS\r\n"
                + "Content-Length: 0\r\n\r\n"), false));
        assertThat(keptAlive).as("the connection's fate stays the container's").doesNotContain("Connection:")
                .contains("\r\nAllow: OPTIONS\r\n").endsWith(Refusal.body(405));
    }

    @Test
    void whenAnApplicationAnswersABareErrorThenItIsLeftAsItCame() {
        String bare = "HTTP/1.1 401 Unauthorized\r\nX-Request-ID: abc\r\nContent-Length: 0\r\n\r\n";
        assertThat(Refusal.envelope(bytes(bare), false)).isNull();
        assertThat(text(Refusal.envelope(bytes(bare), true))).as("the codec's own keeps what it has")
                .contains("\r\nX-Request-ID: abc\r\n");
    }

    @Test
    void whenTheBytesAreAnythingButABareErrorThenTheyAreLeftAsTheyCame() {
        Map<String, String> table = new LinkedHashMap<>();
        table.put("a success", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        table.put("a redirect", "HTTP/1.1 302 Found\r\nLocation: /\r\nContent-Length: 0\r\n\r\n");
        table.put("an error with a body", "HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n{}");
        table.put("an error's head without its body (HEAD)", "HTTP/1.1 404 Not Found\r\nContent-Length: 54\r\n\r\n");
        table.put("an error without a length", "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        table.put("a chunked error", "HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\nContent-Length: 0"
                + "\r\n\r\n");
        table.put("a head cut short", "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n");
        table.put("bytes after the head", "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK");
        table.put("a status that is no number", "HTTP/1.1 4x0 Bad Request\r\nContent-Length: 0\r\n\r\n");
        table.put("a status of two digits", "HTTP/1.1 40 Bad\r\nContent-Length: 0\r\n\r\n");
        table.put("a status of four digits", "HTTP/1.1 4000 Bad\r\nContent-Length: 0\r\n\r\n");
        table.put("a status above 599", "HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n");
        table.put("another protocol", "HTTP/2.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        table.put("a header line without a colon", "HTTP/1.1 400 Bad Request\r\nContent-Length 0\r\n\r\n");
        table.put("a data frame", "\u0000\u0000\u0008\u0000\u0001\u0000\u0000\u0000\u0001HTTP/1.1 400 x\r\n\r\n");
        table.put("a body chunk", "0\r\n\r\n");
        table.put("nothing", "");
        var soft = new SoftAssertions();
        table.forEach((what, bytes) -> {
            soft.assertThat(Refusal.envelope(bytes(bytes), true)).as(what).isNull();
            soft.assertThat(Refusal.envelope(bytes(bytes), false)).as(what).isNull();
        });
        soft.assertThat(Refusal.envelope(null, true)).as("no bytes").isNull();
        soft.assertAll();
    }

    @Test
    void whenTheBytesAreRandomThenTheAnswerIsNothingOrAWellFormedEnvelope() {
        var random = new Random(49);
        String[] parts = {"HTTP/1.1 ", "HTTP/1.0 ", "400", "505", "200", " Bad Request", "\r\n", "\r\n\r\n",
            "Content-Length: 0", "Content-Length: 7", "Transfer-Encoding: chunked", "Connection: close", ":", " ",
            "X-A: b", "\u00e9", "\u0000", "{}"};
        int envelopes = 0;
        for (int i = 0; i < 20_000; i++) {
            var text = new StringBuilder(random.nextInt(4) == 0 ? "" : "HTTP/1.1 4" + random.nextInt(10) + "0 x");
            for (int n = random.nextInt(8); n > 0; n--) {
                text.append(parts[random.nextInt(parts.length)]);
            }
            byte[] answer = Refusal.envelope(bytes(text.toString()), true);
            if (answer != null) {
                envelopes++;
                String out = text(answer);
                int end = out.indexOf("\r\n\r\n");
                String body = out.substring(end + 4);
                assertThat(out).as(text.toString()).startsWith(text.substring(0, 13))
                        .contains("\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n")
                        .contains("\r\nConnection: close\r\n").doesNotContainIgnoringCase("transfer-encoding");
                assertThat(body).startsWith("{\"error\":{\"code\":");
                assertThat(out.toLowerCase(Locale.ROOT).split("content-length", -1)).hasSize(2);
            }
        }
        assertThat(envelopes).as("random bare errors rewritten").isPositive();
    }

    @Test
    void whenAStatusHasNoCodeOfItsOwnThenItsClassDecides() {
        assertThat(Refusal.code(414)).isEqualTo(40000);
        assertThat(Refusal.code(431)).isEqualTo(40000);
        assertThat(Refusal.code(501)).isEqualTo(50000);
        assertThat(Refusal.code(505)).isEqualTo(50000);
        assertThat(Refusal.code(413)).isEqualTo(41300);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String text(byte[] bytes) {
        assertThat(bytes).isNotNull();
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
