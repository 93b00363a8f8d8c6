package dev.atrium.platform.container;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Turns a bare error (status line, headers, {@code Content-Length: 0}, no body) into the same status with the error
 * envelope. The code and message are those the application gives a bare status ({@code Problem.forStatus},
 * {@code StatusTexts}); EnvelopeAgreementTest in the web module holds the two together.
 */
public final class Refusal {

    /** No refusal of the codec is longer: its status line and a few headers. */
    static final int MAX_LENGTH = 2048;

    private Refusal() {
    }

    /**
     * The envelope answer for a bare error, or null when the bytes are anything else. The codec's own refusal closes
     * the connection, and says so; one from above the codec keeps its {@code Connection} header and is left alone when
     * it carries a request id (the application's).
     */
    static byte[] envelope(byte[] response, boolean codec) {
        if (response == null) {
            return null;
        }
        String text = new String(response, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        // the whole answer: one header block and nothing after it
        if (end < 0 || end + 4 != text.length()
                || !(text.startsWith("HTTP/1.1 ") || text.startsWith("HTTP/1.0 ")) || text.length() < 13
                || text.charAt(12) != ' ') {
            return null;
        }
        int status;
        try {
            status = Integer.parseInt(text.substring(9, 12));
        } catch (NumberFormatException e) {
            return null;
        }
        if (status < 400 || status > 599) {
            return null;
        }
        String[] lines = text.substring(0, end).split("\r\n", -1);
        var head = new StringBuilder(lines[0]).append("\r\n");
        boolean emptyBody = false;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            if (colon <= 0) {
                return null;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> emptyBody = "0".equals(value);
                case "transfer-encoding" -> {
                    return null;
                }
                case "x-request-id" -> {
                    if (!codec) {
                        return null;
                    }
                    head.append(line).append("\r\n");
                }
                case "connection" -> {
                    if (!codec) {
                        head.append(line).append("\r\n");
                    }
                }
                case "content-type" -> {
                    // replaced below
                }
                default -> head.append(line).append("\r\n");
            }
        }
        if (!emptyBody) {
            return null;
        }
        byte[] body = body(status).getBytes(StandardCharsets.UTF_8);
        head.append("Content-Type: application/json;charset=UTF-8\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n");
        if (codec) {
            head.append("Connection: close\r\n");
        }
        head.append("\r\n");
        byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] answer = new byte[start.length + body.length];
        System.arraycopy(start, 0, answer, 0, start.length);
        System.arraycopy(body, 0, answer, start.length, body.length);
        return answer;
    }

    /** The envelope of a bare status, as the application writes it. */
    public static String body(int status) {
        return "{\"error\":{\"code\":" + code(status) + ",\"details\":null,\"doc_url\":null,\"message\":\""
                + message(status) + "\"}}";
    }

    /** Problem.forStatus(status).code() for the statuses a parser gives. */
    static int code(int status) {
        return switch (status) {
            case 400, 401, 402, 403, 404, 405, 409, 410, 413, 415, 429, 500, 502, 503 -> status * 100;
            case 422 -> 40001;
            default -> status >= 500 ? 50000 : 40000;
        };
    }

    /** StatusTexts.of(status) for the statuses a parser gives. */
    static String message(int status) {
        return switch (status) {
            case 400 -> "Malformed request";
            case 401 -> "Authentication required";
            case 403 -> "Forbidden";
            case 404 -> "Resource not found";
            case 405 -> "Method not allowed";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 413 -> "Request body too large";
            case 415 -> "Unsupported media type";
            case 422 -> "Request validation failed";
            case 429 -> "Too many requests";
            case 502 -> "Upstream unavailable";
            case 503 -> "Service unavailable";
            default -> status >= 500 ? "Internal server error" : "Request failed";
        };
    }
}
