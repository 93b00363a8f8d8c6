package dev.atrium.identity.control;

/** Where a request came from, as the audit log records it: client address and User-Agent ("" when absent). */
public record RequestOrigin(String ipAddress, String userAgent) {

    public static final RequestOrigin UNKNOWN = new RequestOrigin("", "");

    public RequestOrigin {
        ipAddress = ipAddress == null ? "" : ipAddress;
        userAgent = userAgent == null ? "" : userAgent;
    }
}
