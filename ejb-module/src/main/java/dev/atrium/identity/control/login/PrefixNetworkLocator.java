package dev.atrium.identity.control.login;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

/** The network prefix as location: /16 for IPv4, /48 for IPv6 (an IPv4-mapped IPv6 address counts as IPv4). */
@ApplicationScoped
public class PrefixNetworkLocator implements NetworkLocator {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    // only hex digits, colons and dots, at most 45 characters: never a host name, so no DNS lookup can happen
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    @Override
    public Optional<String> locate(String address) {
        if (address == null) {
            return Optional.empty();
        }
        if (IPV4.matcher(address).matches()) {
            return v4(address);
        }
        // with a colon the JDK parses an IPv6 literal or refuses it, never asks DNS; without one it would resolve
        // anything that is no valid IPv4 literal (999.1.2.3) as a host name, hence IPv4 is read here
        if (address.indexOf(':') < 0 || !IPV6.matcher(address).matches()) {
            return Optional.empty();
        }
        InetAddress parsed;
        try {
            parsed = InetAddress.getByName(address);
        } catch (UnknownHostException | IllegalArgumentException | SecurityException notALiteral) {
            return Optional.empty();
        }
        byte[] b = parsed.getAddress();
        if (parsed instanceof Inet4Address) {
            return Optional.of((b[0] & 0xff) + "." + (b[1] & 0xff) + ".0.0/16");
        }
        return Optional.of(String.format("%x:%x:%x::/48", word(b, 0), word(b, 2), word(b, 4)));
    }

    /** Four decimal octets up to 255, without leading zeros (which some readers take for octal). */
    private static Optional<String> v4(String address) {
        String[] octets = address.split("\\.");
        for (String octet : octets) {
            if (octet.length() > 1 && octet.charAt(0) == '0' || Integer.parseInt(octet) > 255) {
                return Optional.empty();
            }
        }
        return Optional.of(Integer.parseInt(octets[0]) + "." + Integer.parseInt(octets[1]) + ".0.0/16");
    }

    private static int word(byte[] b, int i) {
        return (b[i] & 0xff) << 8 | (b[i + 1] & 0xff);
    }
}
