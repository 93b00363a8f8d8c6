package dev.atrium.sandbox;

import java.util.List;

/**
 * The network a run gets. {@code NONE} is an empty network namespace (loopback only). {@code ALLOWED} lets the run
 * reach {@code allowedDomains} (an empty list means any host); what an adapter can enforce of the domain list is
 * reported by {@link SandboxCapabilities#domainFiltering()}.
 */
public record Network(boolean allowed, List<String> allowedDomains) {

    public static final Network NONE = new Network(false, List.of());

    public Network {
        allowedDomains = List.copyOf(allowedDomains);
    }

    public static Network to(List<String> domains) {
        return new Network(true, domains);
    }
}
