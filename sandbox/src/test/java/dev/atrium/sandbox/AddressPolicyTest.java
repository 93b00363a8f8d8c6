package dev.atrium.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The egress proxy's address table: each range's first and last address refused, the first address outside it on
 * either side decided by its own range (allowed when public), written out by hand; then a seeded random loop against
 * a reference written here from the same registries with big-integer intervals, and the host's own addresses.
 */
class AddressPolicyTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 20000);

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
            // public, for contrast
            "1.1.1.1, allowed", "8.8.8.8, allowed", "93.184.216.34, allowed", "2606:4700::1111, allowed",
            "2a00:1450:4001::1, allowed",
            // 0.0.0.0/8
            "0.0.0.0, refused", "0.255.255.255, refused", "1.0.0.0, allowed",
            // 10.0.0.0/8
            "9.255.255.255, allowed", "10.0.0.0, refused", "10.255.255.255, refused", "11.0.0.0, allowed",
            // 100.64.0.0/10
            "100.63.255.255, allowed", "100.64.0.0, refused", "100.127.255.255, refused", "100.128.0.0, allowed",
            // 127.0.0.0/8
            "126.255.255.255, allowed", "127.0.0.0, refused", "127.255.255.255, refused", "128.0.0.0, allowed",
            // 169.254.0.0/16
            "169.253.255.255, allowed", "169.254.0.0, refused", "169.254.169.254, refused",
            "169.254.255.255, refused", "169.255.0.0, allowed",
            // 172.16.0.0/12
            "172.15.255.255, allowed", "172.16.0.0, refused", "172.31.255.255, refused", "172.32.0.0, allowed",
            // 192.0.0.0/24, 192.0.2.0/24
            "191.255.255.255, allowed", "192.0.0.0, refused", "192.0.0.255, refused", "192.0.1.0, allowed",
            "192.0.1.255, allowed", "192.0.2.0, refused", "192.0.2.255, refused", "192.0.3.0, allowed",
            // 192.88.99.0/24
            "192.88.98.255, allowed", "192.88.99.0, refused", "192.88.99.255, refused", "192.88.100.0, allowed",
            // 192.168.0.0/16
            "192.167.255.255, allowed", "192.168.0.0, refused", "192.168.255.255, refused", "192.169.0.0, allowed",
            // 198.18.0.0/15
            "198.17.255.255, allowed", "198.18.0.0, refused", "198.19.255.255, refused", "198.20.0.0, allowed",
            // 198.51.100.0/24
            "198.51.99.255, allowed", "198.51.100.0, refused", "198.51.100.255, refused", "198.51.101.0, allowed",
            // 203.0.113.0/24
            "203.0.112.255, allowed", "203.0.113.0, refused", "203.0.113.255, refused", "203.0.114.0, allowed",
            // 224.0.0.0/4, 240.0.0.0/4 (its last address the broadcast)
            "223.255.255.255, allowed", "224.0.0.0, refused", "239.255.255.255, refused", "240.0.0.0, refused",
            "255.255.255.254, refused", "255.255.255.255, refused",
            // ::/128, ::1/128, ::/96 (IPv4-compatible), ::ffff:0:0/96 (IPv4-mapped, of public addresses too)
            "::, refused", "::1, refused", "::2, refused", "::ffff:ffff, refused", "::1:0:0, refused",
            "::fffe:ffff:ffff, refused", "::ffff:0:0, refused", "::ffff:8.8.8.8, refused",
            "::ffff:ffff:ffff, refused", "::1:0:0:0, refused", "::8.8.8.8, refused",
            // 64:ff9b::/96 decided by the IPv4 address inside; around it, outside global unicast
            "64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff, refused", "64:ff9b::, refused", "64:ff9b::808:808, allowed",
            "64:ff9b::7f00:1, refused", "64:ff9b::c000:201, refused", "64:ff9b::a00:1, refused",
            "64:ff9b::ffff:ffff, refused", "64:ff9b::1:0:0, refused",
            // 64:ff9b:1::/48
            "64:ff9b:1::, refused", "64:ff9b:1::808:808, refused", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff, refused",
            // 100::/64
            "100::, refused", "100::ffff:ffff:ffff:ffff, refused", "100:0:0:1::, refused",
            // 2000::/3 ends
            "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "2000::, allowed",
            "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, allowed", "4000::, refused",
            // 2001::/23
            "2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff, allowed", "2001::, refused", "2001:10::1, refused",
            "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "2001:200::, allowed",
            // 2001:db8::/32
            "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff, allowed", "2001:db8::, refused",
            "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff, refused", "2001:db9::, allowed",
            // 2002::/16 decided by the IPv4 address inside
            "2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff, allowed", "2002::, refused", "2002:808:808::1, allowed",
            "2002:7f00:1::, refused", "2002:c0a8:101::1, refused", "2002:c612:1::, refused",
            "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "2003::, allowed",
            // 3fff::/20
            "3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff, allowed", "3fff::, refused",
            "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "3fff:1000::, allowed",
            // fc00::/7, fe80::/10, ff00::/8, and what lies between, all outside global unicast
            "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "fc00::, refused", "fd00::2, refused",
            "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "fe00::, refused", "fe80::, refused",
            "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff, refused", "fec0::1, refused", "ff00::, refused",
            "ff02::1, refused", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, refused"})
    void whenAnAddressIsOnARangeBoundaryThenItIsDecidedByItsRange(String address, String expected) {
        String reason = AddressPolicy.reserved(bytes(address));
        assertThat(reason == null ? "allowed" : "refused").as(address + ": " + reason).isEqualTo(expected);
        assertThat(Reference.refused(bytes(address))).as("the reference agrees on " + address)
                .isEqualTo(expected.equals("refused"));
    }

    @Test
    void whenRandomAddressesAreClassifiedThenTheTableAgreesWithTheReference() {
        var random = new Random(SEED);
        int refused = 0;
        for (int i = 0; i < ROUNDS; i++) {
            byte[] address = Reference.sample(random);
            boolean expected = Reference.refused(address);
            boolean actual = AddressPolicy.reserved(address) != null;
            if (actual != expected) {
                throw new AssertionError("round " + i + " (seed " + SEED + "): " + text(address) + " refused="
                        + actual + ", the reference says " + expected);
            }
            refused += actual ? 1 : 0;
        }
        // both outcomes were exercised, near every boundary
        assertThat(refused).isBetween(ROUNDS / 5, ROUNDS * 4 / 5);
    }

    @Test
    void whenTheAddressIsOneOfTheHostsThenRefusedEvenWhenPublic() throws UnknownHostException {
        InetAddress hostPublic = InetAddress.getByName("8.8.4.4");
        var policy = new AddressPolicy(() -> Set.of(hostPublic), Set.of());

        assertThat(policy.refusal(hostPublic)).isEqualTo("an address of this host");
        assertThat(policy.refusal(InetAddress.getByName("64:ff9b::808:404"))).isEqualTo(
                "embeds an address of this host");
        assertThat(policy.refusal(InetAddress.getByName("2002:808:404::1"))).isEqualTo(
                "embeds an address of this host");
        assertThat(policy.refusal(InetAddress.getByName("8.8.8.8"))).isNull();
    }

    @Test
    void whenTheStrictPolicyMeetsAnyAddressOfThisMachineThenItIsRefused() throws Exception {
        var policy = AddressPolicy.strict();
        List<InetAddress> mine = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            mine.addAll(Collections.list(nic.getInetAddresses()));
        }
        assertThat(mine).isNotEmpty();
        for (InetAddress a : mine) {
            assertThat(policy.refusal(a)).as(a.toString()).isNotNull();
        }
        assertThat(policy.refusal(InetAddress.getByName("1.1.1.1"))).isNull();
    }

    @Test
    void whenAPolicyExemptsATestServerThenOnlyThatAddressPasses() throws UnknownHostException {
        var loopback = InetAddress.getByName("127.0.0.1");
        var policy = AddressPolicy.exempting(Set.of(loopback));

        assertThat(policy.refusal(loopback)).isNull();
        assertThat(policy.refusal(InetAddress.getByName("127.0.0.2"))).isEqualTo("loopback");
        assertThat(policy.refusal(InetAddress.getByName("::1"))).isEqualTo("loopback");
    }

    /** 4 or 16 bytes as written: an IPv4-mapped text stays 16 bytes (Java would read it as IPv4). */
    static byte[] bytes(String text) {
        try {
            InetAddress a = InetAddress.getByName(text);
            byte[] b = a.getAddress();
            if (text.contains(":") && a instanceof Inet4Address) {
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(b, 0, mapped, 12, 4);
                return mapped;
            }
            return b;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static String text(byte[] address) {
        return new BigInteger(1, address).toString(16) + "/" + address.length;
    }

    /**
     * An independent reading of the registries: each range an interval of big integers, an address refused when it
     * falls in one, IPv6 outside 2000::/3 refused, NAT64 and 6to4 by the interval of the IPv4 address they carry.
     */
    static final class Reference {

        record Interval(BigInteger first, BigInteger last) {
            static Interval of(int width, String hex, int bits) {
                BigInteger first = new BigInteger(hex, 16);
                BigInteger size = BigInteger.ONE.shiftLeft(width - bits);
                return new Interval(first, first.add(size).subtract(BigInteger.ONE));
            }

            boolean holds(BigInteger n) {
                return n.compareTo(first) >= 0 && n.compareTo(last) <= 0;
            }
        }

        /** 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24, 192.88.99/24, … 240/4. */
        static final List<Interval> V4 = List.of(
                Interval.of(32, "00000000", 8), Interval.of(32, "0a000000", 8), Interval.of(32, "64400000", 10),
                Interval.of(32, "7f000000", 8), Interval.of(32, "a9fe0000", 16), Interval.of(32, "ac100000", 12),
                Interval.of(32, "c0000000", 24), Interval.of(32, "c0000200", 24), Interval.of(32, "c0586300", 24),
                Interval.of(32, "c0a80000", 16), Interval.of(32, "c6120000", 15), Interval.of(32, "c6336400", 24),
                Interval.of(32, "cb007100", 24), Interval.of(32, "e0000000", 4), Interval.of(32, "f0000000", 4));

        /** ::/128, ::1/128, ::/96, ::ffff:0:0/96, 64:ff9b:1::/48, 100::/64, 2001::/23, 2001:db8::/32, 3fff::/20, … */
        static final List<Interval> V6 = List.of(
                Interval.of(128, "0", 128), Interval.of(128, "1", 128), Interval.of(128, "0", 96),
                Interval.of(128, "ffff00000000", 96), Interval.of(128, "0064ff9b000100000000000000000000", 48),
                Interval.of(128, "01000000000000000000000000000000", 64),
                Interval.of(128, "20010000000000000000000000000000", 23),
                Interval.of(128, "20010db8000000000000000000000000", 32),
                Interval.of(128, "3fff0000000000000000000000000000", 20),
                Interval.of(128, "fc000000000000000000000000000000", 7),
                Interval.of(128, "fe800000000000000000000000000000", 10),
                Interval.of(128, "ff000000000000000000000000000000", 8));
        static final Interval GLOBAL = Interval.of(128, "20000000000000000000000000000000", 3);
        static final Interval NAT64 = Interval.of(128, "0064ff9b000000000000000000000000", 96);
        static final Interval SIX_TO_FOUR = Interval.of(128, "20020000000000000000000000000000", 16);

        static boolean refused(byte[] address) {
            BigInteger n = new BigInteger(1, address);
            if (address.length == 4) {
                return V4.stream().anyMatch(r -> r.holds(n));
            }
            if (NAT64.holds(n)) {
                return refusedV4(n.and(mask(32)));
            }
            if (SIX_TO_FOUR.holds(n)) {
                return refusedV4(n.shiftRight(80).and(mask(32)));
            }
            return V6.stream().anyMatch(r -> r.holds(n)) || !GLOBAL.holds(n);
        }

        private static boolean refusedV4(BigInteger n) {
            return V4.stream().anyMatch(r -> r.holds(n));
        }

        private static BigInteger mask(int bits) {
            return BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        }

        /** Uniform addresses, and addresses within a few steps of a range's ends (and the embedded forms). */
        static byte[] sample(Random random) {
            boolean v6 = random.nextBoolean();
            int width = v6 ? 128 : 32;
            BigInteger n;
            switch (random.nextInt(v6 ? 5 : 3)) {
                case 0 -> n = new BigInteger(width, random);
                case 1, 2 -> n = near(random, v6 ? pick(random, V6, GLOBAL, NAT64, SIX_TO_FOUR) : pick(random, V4),
                        width);
                case 3 -> n = NAT64.first().or(near(random, pick(random, V4), 32));
                default -> n = SIX_TO_FOUR.first().or(near(random, pick(random, V4), 32).shiftLeft(80))
                        .or(new BigInteger(80, random));
            }
            byte[] raw = n.toByteArray();
            byte[] out = new byte[width / 8];
            int copy = Math.min(raw.length, out.length);
            System.arraycopy(raw, raw.length - copy, out, out.length - copy, copy);
            return out;
        }

        private static Interval pick(Random random, List<Interval> list, Interval... more) {
            int i = random.nextInt(list.size() + more.length);
            return i < list.size() ? list.get(i) : more[i - list.size()];
        }

        private static BigInteger near(Random random, Interval range, int width) {
            BigInteger end = random.nextBoolean() ? range.first() : range.last();
            BigInteger n = end.add(BigInteger.valueOf(random.nextInt(7) - 3));
            BigInteger top = BigInteger.ONE.shiftLeft(width);
            return n.signum() < 0 ? n.add(top) : n.mod(top);
        }
    }
}
