package dev.atrium.sandbox;

import java.util.List;

/**
 * The network a run gets. {@code NONE} is an empty network namespace (loopback only). {@code ALLOWED} lets the run
 * reach {@code allowedDomains} (an empty list means any host); what an adapter can enforce of the domain list is
 * reported by {@link SandboxCapabilities#domainFiltering()}. A {@code gatewayPort} above 0 also lets the run call the
 * platform's own invoke gateway, listening on that loopback port of the host, as the pseudo-host
 * {@value #GATEWAY_HOST} — and nothing else of the host: only {@code POST /v1/agents/<name>/invoke} passes (see
 * {@link EgressProxy}).
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
