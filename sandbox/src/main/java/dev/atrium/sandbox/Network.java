package dev.atrium.sandbox;

import java.util.List;

/**
 * The network a run gets. Every run has its own empty network namespace (loopback only), whatever its network: the
 * host's namespace is never shared. {@code NONE} leaves it at that. {@code allowed} lets the run reach
 * {@code allowedDomains} (an empty list means any public address) through its {@link EgressProxy}, the only way out,
 * which never connects to an address of the host or of a non-public range ({@link AddressPolicy}); whether this
 * machine can run the proxy's relay is reported by {@link SandboxCapabilities#domainFiltering()}. A
 * {@code gatewayPort} above 0 also lets the run call the platform's own invoke gateway, listening on that loopback
 * port of the host, as the pseudo-host {@value #GATEWAY_HOST} — and nothing else of the host: only
 * {@code POST /v1/agents/<name>/invoke} passes (see {@link EgressProxy}).
 */
public record Network(boolean allowed, List<String> allowedDomains, int gatewayPort) {

    public static final Network NONE = new Network(false, List.of(), 0);
    /** The name under which a run reaches the invoke gateway through its proxy. */
    public static final String GATEWAY_HOST = "gateway.atrium.internal";

    public Network {
        allowedDomains = List.copyOf(allowedDomains);
        if (gatewayPort < 0 || gatewayPort > 65535) {
            throw new IllegalArgumentException("Not a port: " + gatewayPort);
        }
    }

    public Network(boolean allowed, List<String> allowedDomains) {
        this(allowed, allowedDomains, 0);
    }

    public static Network to(List<String> domains) {
        return new Network(true, domains, 0);
    }

    /** The same network plus the invoke gateway on the host's loopback {@code port}. */
    public Network withGateway(int port) {
        if (port < 1) {
            throw new IllegalArgumentException("Not a port: " + port);
        }
        return new Network(allowed, allowedDomains, port);
    }

    public boolean gateway() {
        return gatewayPort > 0;
    }
}
