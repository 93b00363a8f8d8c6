package dev.atrium.sandbox;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Which addresses the egress proxy may connect to: public ones only. Refused are the ranges of the IANA IPv4 and
 * IPv6 special-purpose address registries that are not globally reachable, with loopback, private, link-local,
 * CGNAT, unique-local, multicast, broadcast, unspecified, documentation, benchmarking and reserved space among them;
 * in IPv6 everything outside global unicast 2000::/3; the IPv4-mapped and IPv4-compatible forms; the NAT64 and 6to4
 * forms whose embedded IPv4 address is refused; and every address of the host's own interfaces, enumerated afresh
 * for each decision (an interface may come up at any time, and the enumeration costs far less than a connection).
 */
final class AddressPolicy {

    /** A prefix of the table: {@code network/bits}, and why an address in it is refused. */
    record Range(byte[] network, int bits, String reason) {

        static Range of(String cidr, String reason) {
            int slash = cidr.indexOf('/');
            try {
                byte[] network = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
                if (cidr.contains(":") && network.length == 4) {
                    // Java reads ::ffff:a.b.c.d as the IPv4 address; the table means the IPv6 prefix
                    network = mapped(network);
                }
                return new Range(network, Integer.parseInt(cidr.substring(slash + 1)), reason);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(cidr, e);
            }
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    /** IPv4: the IANA special-purpose registry's ranges that are not globally reachable, multicast and 240/4. */
    static final List<Range> IPV4 = List.of(
            Range.of("0.0.0.0/8", "this network (reserved)"),
            Range.of("10.0.0.0/8", "private"),
            Range.of("100.64.0.0/10", "shared address space (CGNAT)"),
            Range.of("127.0.0.0/8", "loopback"),
            Range.of("169.254.0.0/16", "link-local"),
            Range.of("172.16.0.0/12", "private"),
            Range.of("192.0.0.0/24", "IETF protocol assignments (reserved)"),
            Range.of("192.0.2.0/24", "documentation (TEST-NET-1)"),
            Range.of("192.88.99.0/24", "6to4 relay anycast (deprecated)"),
            Range.of("192.168.0.0/16", "private"),
            Range.of("198.18.0.0/15", "benchmarking"),
            Range.of("198.51.100.0/24", "documentation (TEST-NET-2)"),
            Range.of("203.0.113.0/24", "documentation (TEST-NET-3)"),
            Range.of("224.0.0.0/4", "multicast"),
            Range.of("240.0.0.0/4", "reserved (incl. broadcast)"));

    /**
     * IPv6, checked in order; 64:ff9b::/96 and 2002::/16 are decided by the IPv4 address they embed, anything else
     * outside 2000::/3 is refused as not global unicast.
     */
    static final List<Range> IPV6 = List.of(
            Range.of("::/128", "unspecified"),
            Range.of("::1/128", "loopback"),
            Range.of("::ffff:0:0/96", "IPv4-mapped"),
            Range.of("::/96", "IPv4-compatible (deprecated)"),
            Range.of("64:ff9b:1::/48", "local-use NAT64"),
            Range.of("100::/64", "discard-only"),
            Range.of("2001::/23", "IETF protocol assignments"),
            Range.of("2001:db8::/32", "documentation"),
            Range.of("3fff::/20", "documentation"),
            Range.of("fc00::/7", "unique-local"),
            Range.of("fe80::/10", "link-local"),
            Range.of("ff00::/8", "multicast"));

    static final Range NAT64 = Range.of("64:ff9b::/96", "NAT64");
    static final Range SIX_TO_FOUR = Range.of("2002::/16", "6to4");
    static final Range GLOBAL_UNICAST = Range.of("2000::/3", "global unicast");

    private final Supplier<Set<InetAddress>> own;
    private final Set<InetAddress> exempt;

    /** {@code own}: the host's addresses, asked for each decision; {@code exempt}: tests' servers on loopback. */
    AddressPolicy(Supplier<Set<InetAddress>> own, Set<InetAddress> exempt) {
        this.own = own;
        this.exempt = Set.copyOf(exempt);
    }

    /** Public addresses only, never the host's own. */
    static AddressPolicy strict() {
        return new AddressPolicy(AddressPolicy::interfaceAddresses, Set.of());
    }

    /** Tests only: the strict policy, except for these addresses (a test server on loopback). */
    static AddressPolicy exempting(Set<InetAddress> addresses) {
        return new AddressPolicy(AddressPolicy::interfaceAddresses, addresses);
    }

    /** Why the proxy must not connect to {@code address}, or null when it may. */
    String refusal(InetAddress address) {
        if (exempt.contains(address)) {
            return null;
        }
        String reason = reserved(address.getAddress());
        if (reason != null) {
            return reason;
        }
        byte[] bytes = address.getAddress();
        Set<InetAddress> mine = own.get();
        for (InetAddress a : mine) {
            if (Arrays.equals(a.getAddress(), bytes)) {
                return "an address of this host";
            }
        }
        byte[] embedded = embedded(bytes);
        if (embedded != null) {
            for (InetAddress a : mine) {
                if (Arrays.equals(a.getAddress(), embedded)) {
                    return "embeds an address of this host";
                }
            }
        }
        return null;
    }

    /** The table alone: why the address (4 or 16 bytes) is not public, or null when it is. */
    static String reserved(byte[] address) {
        if (address.length == 4) {
            for (Range r : IPV4) {
                if (r.contains(address)) {
                    return r.reason();
                }
            }
            return null;
        }
        if (address.length != 16) {
            return "not an IP address";
        }
        for (Range r : IPV6) {
            if (r.contains(address)) {
                return r.reason();
            }
        }
        byte[] embedded = embedded(address);
        if (embedded != null) {
            String inner = reserved(embedded);
            return inner == null ? null : (NAT64.contains(address) ? "NAT64" : "6to4") + " of " + inner;
        }
        return GLOBAL_UNICAST.contains(address) ? null : "outside global unicast (reserved)";
    }

    /** The IPv4 address a NAT64 (last 32 bits) or 6to4 (bits 16-47) address stands for, else null. */
    static byte[] embedded(byte[] address) {
        if (address.length != 16) {
            return null;
        }
        if (NAT64.contains(address)) {
            return new byte[] {address[12], address[13], address[14], address[15]};
        }
        if (SIX_TO_FOUR.contains(address)) {
            return new byte[] {address[2], address[3], address[4], address[5]};
        }
        return null;
    }

    private static byte[] mapped(byte[] v4) {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        System.arraycopy(v4, 0, b, 12, 4);
        return b;
    }

    /** Every address of every interface of the host, up or down; on failure, none (the table still holds). */
    static Set<InetAddress> interfaceAddresses() {
        var found = new HashSet<InetAddress>();
        try {
            List<NetworkInterface> nics = new ArrayList<>(Collections.list(NetworkInterface.getNetworkInterfaces()));
            for (NetworkInterface nic : nics) {
                found.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException | RuntimeException e) {
            // an enumeration that fails leaves the table, which covers loopback and the private ranges
        }
        return found;
    }
}
