package dev.atrium.platform.boundary;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;

import org.eclipse.microprofile.config.Config;

/**
 * The client's address. {@code X-Forwarded-For} is believed only when the connection comes from a proxy listed in
 * {@code atrium.http.trusted-proxies} (addresses or CIDR blocks); then the last address not itself a trusted proxy
 * is the client. Otherwise a client could pick any address and escape per-IP limits.
 */
@ApplicationScoped
public class ClientAddress {

    private static final Pattern IP_SHAPE = Pattern.compile("[0-9a-fA-F:.]{2,45}");

    @Inject
    Config config;

    private List<Cidr> trusted = List.of();

    record Cidr(byte[] network, int bits) {

        static Cidr parse(String text) {
            String[] parts = text.trim().split("/");
            try {
                byte[] address = InetAddress.getByName(parts[0]).getAddress();
                int bits = parts.length > 1 ? Integer.parseInt(parts[1]) : address.length * 8;
                return new Cidr(address, bits);
            } catch (UnknownHostException | NumberFormatException e) {
                throw new IllegalStateException("atrium.http.trusted-proxies: cannot read '" + text + "'", e);
            }
        }

        boolean contains(String ip) {
            byte[] candidate;
            try {
                candidate = InetAddress.getByName(ip).getAddress();
            } catch (UnknownHostException e) {
                return false;
            }
            if (candidate.length != network.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (candidate[i] != network[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest);
            return (candidate[full] & mask) == (network[full] & mask);
        }
    }

    @PostConstruct
    void parse() {
        trusted = config.getOptionalValues("atrium.http.trusted-proxies", String.class).orElse(List.of()).stream()
                .filter(s -> !s.isBlank()).map(Cidr::parse).toList();
    }

    public String of(HttpServletRequest request) {
        String remote = request.getRemoteAddr();
        String forwarded = request.getHeader("X-Forwarded-For");
        if (forwarded == null || forwarded.isBlank() || !isTrusted(remote)) {
            return remote;
        }
        String[] hops = forwarded.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].trim();
            if (!hop.isEmpty() && looksLikeIp(hop) && !isTrusted(hop)) {
                return hop;
            }
        }
        return remote;
    }

    /**
     * Whether the client reached us over HTTPS: on this connection, or through a trusted proxy that says so in
     * {@code X-Forwarded-Proto} (a client cannot claim it itself).
     */
    public boolean overHttps(HttpServletRequest request) {
        if (request.isSecure()) {
            return true;
        }
        String proto = request.getHeader("X-Forwarded-Proto");
        return proto != null && isTrusted(request.getRemoteAddr())
                && "https".equalsIgnoreCase(proto.split(",")[0].trim());
    }

    private boolean isTrusted(String ip) {
        return trusted.stream().anyMatch(c -> c.contains(ip));
    }

    private static boolean looksLikeIp(String text) {
        return IP_SHAPE.matcher(text).matches();
    }
}
