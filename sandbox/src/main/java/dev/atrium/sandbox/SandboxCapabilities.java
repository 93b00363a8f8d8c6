package dev.atrium.sandbox;

import java.util.List;

/**
 * What an executor can enforce on this machine: namespaces (bubblewrap works), each cgroup limit, the cgroup
 * version found ({@code v2}, {@code v1} or {@code none}), whether granted network can be given at all
 * ({@code domainFiltering}: the egress proxy's relay runs here; a run has no other way out of its own network
 * namespace, so without it a run granted network gets none), whether network calls can be audited (strace), and the
 * problems found, in words, for {@code /health} and the log.
 * {@link #canRunUntrusted()} is false unless every limit can be applied.
 */
public record SandboxCapabilities(String adapter, boolean namespaces, boolean memoryLimit, boolean cpuLimit,
                                  boolean processLimit, String cgroupVersion, boolean domainFiltering,
                                  boolean networkAudit, List<String> problems) {

    public SandboxCapabilities {
        problems = List.copyOf(problems);
    }

    public boolean canRunUntrusted() {
        return namespaces && memoryLimit && cpuLimit && processLimit;
    }
}
