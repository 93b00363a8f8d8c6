package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An agent that declares network and no domain list ("any host") tries, at each trust level, to reach the host it
 * runs on: Atrium on loopback and on the host's own interface addresses, Redis, PostgreSQL, a listener of this test,
 * and a sample of the reserved ranges, by socket from its namespace and through its egress proxy (CONNECT and
 * absolute-form, the host spelled every way a parser might accept). Nothing connects: the run has its own empty
 * network namespace at every level, and the proxy refuses every address that is not public. No public address is
 * contacted by this test.
 */
class HostileAgentHostNetworkIT extends HostileAgentCase {

    /** A sample of the refused ranges, none of them routed anywhere from the run's namespace. */
    private static final List<String> RESERVED = List.of("0.0.0.0", "10.0.0.1", "100.64.0.1", "169.254.169.254",
            "172.16.0.1", "192.0.0.1", "192.0.2.1", "192.168.0.1", "198.18.0.1", "198.51.100.1", "203.0.113.1",
            "224.0.0.1", "240.0.0.1", "255.255.255.255", "::", "::1", "fd00::1", "fe80::1", "2001:db8::1",
            "64:ff9b::7f00:1", "::ffff:127.0.0.1", "2002:7f00:1::1", "100::1", "ff02::1");

    private ServerSocket listener;
    private final List<String> accepted = Collections.synchronizedList(new ArrayList<>());

    /** A listener of the test on every address of the host: whatever reaches it shows in {@code accepted}. */
    @BeforeEach
    void listen() throws IOException {
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(0));
        Thread accept = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    accepted.add(String.valueOf(s.getRemoteSocketAddress()));
                } catch (IOException e) {
                    return;
                }
            }
        }, "hostile-network-listener");
        accept.setDaemon(true);
        accept.start();
    }

    @AfterEach
    void close() throws IOException {
        listener.close();
    }

    @Test
    void whenUnverifiedThenNothingOfTheHostIsReached() throws IOException {
        attack(null, false);
    }

    @Test
    void whenCommunityThenNothingOfTheHostIsReached() throws IOException {
        attack("community_verified", false);
    }

    @Test
    void whenOfficialThenNothingOfTheHostIsReached() throws IOException {
        attack("official", false);
    }

    /** The card lists the host itself as its domains: loopback, its name and the host's interface addresses. */
    @Test
    void whenTheDomainListNamesTheHostThenTheProxyStillRefusesIt() throws IOException {
        attack("official", true);
    }

    private void attack(String trust, boolean hostAsDomains) throws IOException {
        int atrium = URI.create(AtriumServer.get().baseUrl()).getPort();
        int mine = listener.getLocalPort();
        List<String> own = hostAddresses();
        assertThat(own).as("the host has a non-loopback address to attack").isNotEmpty();

        var direct = new ArrayList<List<Object>>();
        var proxied = new ArrayList<String>();
        for (int port : List.of(atrium, 6379, 5432, mine)) {
            direct.add(List.of("127.0.0.1", port));
            proxied.add("127.0.0.1:" + port);
        }
        for (String address : own) {
            direct.add(List.of(address, atrium));
            direct.add(List.of(address, mine));
            proxied.add(bracketed(address) + ":" + atrium);
            proxied.add(bracketed(address) + ":" + mine);
        }
        for (String address : RESERVED) {
            direct.add(List.of(address, 443));
            proxied.add(bracketed(address) + ":" + atrium);
        }
        // spellings of loopback a lenient parser or resolver reads as 127.0.0.1
        for (String odd : List.of("localhost", "LocalHost.", "2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1",
                "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]", "[fe80::1%25lo]", "[::1%lo]")) {
            proxied.add(odd + ":" + atrium);
        }
        var fetched = List.of("http://127.0.0.1:" + atrium + "/health", "http://localhost:" + atrium + "/health",
                "http://2130706433:" + atrium + "/health", "http://[::1]:" + atrium + "/health",
                "http://x@127.0.0.1:" + atrium + "/health", "http://" + bracketed(own.get(0)) + ":" + atrium
                        + "/health", "http://127.0.0.1:6379/", "http://127.0.0.1:" + mine + "/");

        var card = HostileAgents.card("host-net", 30, false);
        card.with("runtime").put("requires_network", true);
        if (hostAsDomains) {
            var domains = card.putObject("permissions").put("requires_network", true).putArray("allowed_domains");
            domains.add("localhost").add("127.0.0.1");
            own.forEach(domains::add);
        }
        var listing = HostileAgents.list(staff, card, HostileAgents.python(ATTACK, Map.of("direct", direct,
                "proxied", proxied, "fetched", fetched)));
        if (HostileAgents.refusedByScan(listing)) {
            return;
        }
        if (trust != null) {
            promote(listing.id(), "community_verified");
            if (trust.equals("official")) {
                promote(listing.id(), "official");
            }
        }

        JsonNode report = HostileAgents.report(HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK));

        assertThat(report.size()).as(report.toString()).isEqualTo(1 + direct.size() + proxied.size()
                + fetched.size());
        report.fields().forEachRemaining(e -> {
            String seen = e.getValue().asText();
            if (e.getKey().startsWith("direct ")) {
                assertThat(seen).as(e.getKey()).isNotEqualTo("connected");
            } else if (e.getKey().startsWith("proxy ") || e.getKey().startsWith("fetch ")) {
                if (trust == null) {
                    // no network at all: no proxy listens in the run's namespace
                    assertThat(seen).as(e.getKey()).doesNotStartWith("HTTP/");
                } else {
                    // the proxy answered, and refused
                    assertThat(seen).as(e.getKey()).matches("HTTP/1\\.1 40[03] .*");
                }
            }
        });
        assertThat(report.get("proxy_env").asText()).isEqualTo(trust == null ? "" : "http://127.0.0.1:3128");
        assertThat(accepted).as("connections that reached the test's listener").isEmpty();
        HostileAgents.stillServing(caller, calm);
    }

    private static void promote(String id, String level) {
        var reply = staff.api().post("/v1/admin/agents/" + id + "/trust", Map.of("level", level, "note",
                "hostile network test"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    /** The host's own addresses other than loopback and link-local (those need a zone to be named). */
    private static List<String> hostAddresses() throws SocketException {
        var found = new ArrayList<String>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    String text = a.getHostAddress();
                    int zone = text.indexOf('%');
                    found.add(zone < 0 ? text : text.substring(0, zone));
                }
            }
        }
        return found;
    }

    private static String bracketed(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }

    /** Direct sockets, CONNECT through the proxy variable's port, and absolute-form requests; what each met. */
    private static final String ATTACK = """
            def attack(conf):
                net = mod("so", "ck", "et")
                out = {"proxy_env": mod("o", "s").environ.get("HTTPS_PROXY", "")}
                def first_line(s):
                    data = b""
                    while b"\\r\\n" not in data and len(data) < 400:
                        chunk = s.recv(400)
                        if not chunk:
                            break
                        data += chunk
                    return data.decode("latin-1").split("\\r\\n")[0] if data else "closed without an answer"
                for host, port in conf["direct"]:
                    key = "direct " + host + ":" + str(port)
                    s = net.socket(net.AF_INET6 if ":" in host else net.AF_INET, net.SOCK_STREAM)
                    s.settimeout(3)
                    try:
                        s.connect((host, port))
                        out[key] = "connected"
                    except Exception as e:
                        out[key] = type(e).__name__ + ": " + str(e)
                    finally:
                        s.close()
                def through_proxy(key, request):
                    s = None
                    try:
                        s = net.create_connection(("127.0.0.1", 3128), timeout=5)
                        s.sendall(request.encode("latin-1"))
                        out[key] = first_line(s)
                    except Exception as e:
                        out[key] = type(e).__name__ + ": " + str(e)
                    finally:
                        if s is not None:
                            s.close()
                for target in conf["proxied"]:
                    through_proxy("proxy " + target, "CONNECT %s HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n" % (target, target))
                for url in conf["fetched"]:
                    through_proxy("fetch " + url, "GET %s HTTP/1.1\\r\\nHost: %s\\r\\nConnection: close\\r\\n\\r\\n"
                                  % (url, url.split("/")[2]))
                return out
            """;
}
