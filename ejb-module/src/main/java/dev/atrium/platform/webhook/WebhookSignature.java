package dev.atrium.platform.webhook;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.atrium.platform.error.BusinessException;

/**
 * Verifies inbound webhook callbacks signed with HMAC-SHA256. The signature header reads
 * {@code t=<unix seconds>,v1=<hex>} where the HMAC covers {@code "<t>." + raw body}; several {@code v1} values may
 * be sent while the sender rotates its secret. The comparison takes constant time, and a timestamp outside the
 * tolerance (default 300 s, either way) is refused, so a captured callback cannot be replayed later.
 */
public final class WebhookSignature {

    public static final String HEADER = "X-Atrium-Signature";
    public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

    private WebhookSignature() {
    }

    /** The header value a sender puts on {@code body} at {@code timestamp}. */
    public static String sign(byte[] secret, long timestamp, byte[] body) {
        return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(hmac(secret, timestamp, body));
    }

    /** Throws 401 (no or unreadable signature, bad signature) or 400 (timestamp outside the tolerance). */
    public static void verify(byte[] secret, String header, byte[] body, Instant now, Duration tolerance) {
        verify(secret, HEADER, header, body, now, tolerance);
    }

    /**
     * As {@link #verify(byte[], String, byte[], Instant, Duration)}, for a sender that puts the same scheme in a header
     * of its own ({@code Stripe-Signature}); {@code name} is the header's name, for the error messages.
     */
    public static void verify(byte[] secret, String name, String header, byte[] body, Instant now,
                              Duration tolerance) {
        if (header == null || header.isBlank()) {
            throw BusinessException.unauthenticated("Missing " + name + " header");
        }
        Long timestamp = null;
        var candidates = new ArrayList<byte[]>();
        for (String part : header.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length != 2) {
                continue;
            }
            try {
                if (kv[0].equals("t")) {
                    timestamp = Long.parseLong(kv[1]);
                } else if (kv[0].equals("v1")) {
                    candidates.add(HexFormat.of().parseHex(kv[1]));
                }
            } catch (IllegalArgumentException ignored) {
                // an unreadable part counts as absent
            }
        }
        if (timestamp == null || candidates.isEmpty()) {
            throw BusinessException.unauthenticated("Unreadable " + name + " header");
        }
        if (Math.abs(now.getEpochSecond() - timestamp) > tolerance.toSeconds()) {
            throw BusinessException.badRequest("Webhook timestamp outside the accepted window");
        }
        byte[] expected = hmac(secret, timestamp, body);
        boolean match = false;
        for (byte[] candidate : candidates) {
            // no early exit: every candidate is compared in constant time
            match |= MessageDigest.isEqual(expected, candidate);
        }
        if (!match) {
            throw BusinessException.unauthenticated("Webhook signature does not match");
        }
    }

    private static byte[] hmac(byte[] secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }
}
