package dev.atrium.platform.boundary.http;

import java.security.SecureRandom;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;

/** The 8-character id every response carries in {@code X-Request-ID}, also written into log lines. */
public final class RequestIds {

    public static final String HEADER = "X-Request-ID";
    static final String ATTRIBUTE = "atrium.request-id";
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final Pattern ACCEPTED = Pattern.compile("^[A-Za-z0-9_-]{8}$");
    private static final SecureRandom RANDOM = new SecureRandom();

    private RequestIds() {
    }

    /** A proxy's id is kept when it has the right shape, so one request can be followed across hops. */
    static String assign(HttpServletRequest request) {
        String incoming = request.getHeader(HEADER);
        String id = incoming != null && ACCEPTED.matcher(incoming).matches() ? incoming : generate();
        request.setAttribute(ATTRIBUTE, id);
        return id;
    }

    public static String of(HttpServletRequest request) {
        Object id = request == null ? null : request.getAttribute(ATTRIBUTE);
        return id == null ? "-" : id.toString();
    }

    static String generate() {
        char[] id = new char[8];
        for (int i = 0; i < id.length; i++) {
            id[i] = ALPHABET[RANDOM.nextInt(ALPHABET.length)];
        }
        return new String(id);
    }
}
