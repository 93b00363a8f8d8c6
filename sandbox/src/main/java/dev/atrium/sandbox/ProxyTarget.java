package dev.atrium.sandbox;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The host and port a run asks its egress proxy for, read strictly from a {@code CONNECT host:port} target or an
 * absolute-form {@code http://host[:port]/…} one. A host is either a name (letters, digits and hyphens in labels,
 * the last label starting with a letter, one trailing dot allowed) or an address in its one plain spelling: a
 * dotted quad of four decimal parts without leading zeros, or a bracketed IPv6 address in hexadecimal groups. Every
 * other spelling that a lenient parser or resolver reads as an address ({@code 2130706433}, {@code 0x7f.1},
 * {@code 0177.0.0.1}, {@code 127.1}, a zone id, a dotted IPv4 inside brackets, user information) is refused
 * outright, so no name that is really a number reaches the resolver and every literal is classified as the address
 * it is.
 *
 * @param name    the lower-case name to resolve, or null for a literal
 * @param literal the address written, or null for a name
 */
record ProxyTarget(String name, InetAddress literal, int port) {

    private static final Pattern QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern HEX_GROUPS = Pattern.compile("[0-9a-f:]{2,39}");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    /** The target of {@code CONNECT}: {@code host:port}, the port required. */
    static ProxyTarget connect(String target) {
        return authority(target, -1);
    }

    /** The target of an absolute-form request: {@code http://host[:port]} then a path, query or nothing. */
    static ProxyTarget absolute(String target) {
        if (!target.regionMatches(true, 0, "http://", 0, 7)) {
            throw new IllegalArgumentException("not an absolute http:// target");
        }
        int end = 7;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        return authority(target.substring(7, end), 80);
    }

    /** The host as written, canonical: the name, or the address's plain text. */
    String host() {
        return name != null ? name : literal.getHostAddress();
    }

    private static ProxyTarget authority(String authority, int defaultPort) {
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("an unclosed bracket");
            }
            host = authority.substring(0, close + 1);
            String rest = authority.substring(close + 1);
            if (!rest.isEmpty() && !rest.startsWith(":")) {
                throw new IllegalArgumentException("text after the bracketed address");
            }
            port = rest.isEmpty() ? null : rest.substring(1);
        } else {
            int colon = authority.indexOf(':');
            if (colon != authority.lastIndexOf(':')) {
                throw new IllegalArgumentException("an IPv6 address without brackets");
            }
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
        }
        int number;
        if (port == null) {
            if (defaultPort < 0) {
                throw new IllegalArgumentException("no port");
            }
            number = defaultPort;
        } else if (PORT.matcher(port).matches() && Integer.parseInt(port) >= 1 && Integer.parseInt(port) <= 65535) {
            number = Integer.parseInt(port);
        } else {
            throw new IllegalArgumentException("not a port");
        }
        return host(host, number);
    }

    private static ProxyTarget host(String written, int port) {
        String h = written.toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            String inner = h.substring(1, h.length() - 1);
            // hexadecimal groups only: no zone id, no dotted IPv4 tail, no name
            if (!HEX_GROUPS.matcher(inner).matches() || !inner.contains(":")) {
                throw new IllegalArgumentException("an odd spelling of an IPv6 address");
            }
            InetAddress address;
            try {
                // with a colon in it, Java parses the text as a literal and never asks a resolver
                address = InetAddress.getByName(inner);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IPv6 address");
            }
            if (address instanceof Inet4Address) {
                // ::ffff:7f00:1, read by Java as 127.0.0.1: an IPv4 address spelled as IPv6
                throw new IllegalArgumentException("an IPv4-mapped spelling");
            }
            return new ProxyTarget(null, address, port);
        }
        if (QUAD.matcher(h).matches()) {
            String[] parts = h.split("\\.");
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                bytes[i] = (byte) Integer.parseInt(parts[i]);
            }
            try {
                return new ProxyTarget(null, InetAddress.getByAddress(bytes), port);
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        String name = h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
        if (name.isEmpty() || name.length() > 253) {
            throw new IllegalArgumentException("not a host name");
        }
        String[] labels = name.split("\\.", -1);
        for (String label : labels) {
            if (!LABEL.matcher(label).matches()) {
                throw new IllegalArgumentException("not a host name");
            }
        }
        char first = labels[labels.length - 1].charAt(0);
        if (first < 'a' || first > 'z') {
            // 127.1, 2130706433, 0x7f.0.0.1, 0177.0.0.1: numbers to a resolver, never names
            throw new IllegalArgumentException("an odd spelling of an address");
        }
        return new ProxyTarget(name, null, port);
    }
}
