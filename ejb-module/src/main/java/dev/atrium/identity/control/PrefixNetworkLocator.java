package dev.atrium.identity.control;

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
        boolean v4 = IPV4.matcher(address).matches();
        if (!v4 && !(address.indexOf(':') >= 0 && IPV6.matcher(address).matches())) {
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

    private static int word(byte[] b, int i) {
        return (b[i] & 0xff) << 8 | (b[i + 1] & 0xff);
    }
}
