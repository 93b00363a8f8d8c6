package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** An agent without declared network cannot reach the server, the host, the internet or a resolver. */
class HostileAgentNetworkIT extends HostileAgentCase {

    @Test
    void whenAnAgentWithoutNetworkConnectsOutThenEveryAttemptFails() throws UnknownHostException {
        int port = URI.create(AtriumServer.get().baseUrl()).getPort();
        List<List<Object>> targets = new ArrayList<>(List.of(List.of("127.0.0.1", port), List.of("1.1.1.1", 443),
                List.of("8.8.8.8", 53)));
        String host = InetAddress.getLocalHost().getHostAddress();
        if (!host.startsWith("127.")) {
            targets.add(List.of(host, port));
        }
        var listing = HostileAgents.list(staff, HostileAgents.card("reach", 20, false), HostileAgents.python("""
                def attack(conf):
                    net = mod("so", "ck", "et")
                    out = {}
                    for host, port in conf["targets"]:
                        s = net.socket(net.AF_INET, net.SOCK_STREAM)
                        s.settimeout(3)
                        try:
                            s.connect((host, port))
                            out[host + ":" + str(port)] = "connected"
                        except Exception as e:
                            out[host + ":" + str(port)] = type(e).__name__ + ": " + str(e)
                        finally:
                            s.close()
                    try:
                        u = net.socket(net.AF_INET, net.SOCK_DGRAM)
                        u.sendto(b"x", ("1.1.1.1", 53))
                        out["udp"] = "sent"
                    except Exception as e:
                        out["udp"] = type(e).__name__ + ": " + str(e)
                    try:
                        net.getaddrinfo("example.com", 443)
                        out["dns"] = "resolved"
                    except Exception as e:
                        out["dns"] = type(e).__name__ + ": " + str(e)
                    return out
                """, Map.of("targets", targets)));

        if (!HostileAgents.refusedByScan(listing)) {
            var reply = HostileAgents.invoke(caller, listing.id(), HostileAgents.ATTACK);
            var report = HostileAgents.report(reply);
            assertThat(report.size()).as(report.toString()).isEqualTo(targets.size() + 2);
            report.fields().forEachRemaining(e -> assertThat(e.getValue().asText()).as(e.getKey())
                    .isNotIn("connected", "sent", "resolved"));
        }
        HostileAgents.stillServing(caller, calm);
    }
}
