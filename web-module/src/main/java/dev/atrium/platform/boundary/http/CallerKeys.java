package dev.atrium.platform.boundary.http;

import jakarta.servlet.http.HttpServletRequest;

import dev.atrium.platform.boundary.ClientAddress;

/**
 * Who a request counts against, for rate limits and idempotency: the authenticated caller as set by the
 * authentication mechanism ({@code user:42}, {@code key:…}), else the client address.
 */
public final class CallerKeys {

    /** Request attribute the authentication mechanism fills. */
    public static final String ATTRIBUTE = "atrium.caller-key";

    private CallerKeys() {
    }

    public static String of(HttpServletRequest request, ClientAddress addresses) {
        Object key = request.getAttribute(ATTRIBUTE);
        return key != null ? key.toString() : "ip:" + addresses.of(request);
    }
}
