package dev.atrium.marketplace.control.runtime;

import java.time.Duration;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.sandbox.Limits;

/**
 * The limits an agent runs with, decided in one place (docs/decisions/marketplace.md, "The sandbox"): memory =
 * min(declared, or 256 MB when undeclared; the trust ceiling); timeout = min(declared, or the gateway's 120 s when
 * undeclared; the trust ceiling); CPU = min(declared {@code max_cpu_percent}, or 50 % of one CPU when undeclared; the
 * trust ceiling; the CPUs this machine has); network only when declared and the trust level allows it. A declaration
 * above its ceiling is capped, not refused, as memory and time are: trust earned later lifts the cap without a new
 * version.
 */
public final class AgentLimits {

    /**
     * The ceilings per trust level: network, memory and timeout are the spec's; CPU (in percent of one CPU) is ours,
     * the spec giving only the 50 % default: an unverified agent gets no more than the default, each level above
     * twice the one below.
     */
    public record Ceiling(boolean network, int memoryMb, int timeoutS, int cpuPercent) {
    }

    public static final int DEFAULT_MEMORY_MB = 256;
    public static final int GATEWAY_TIMEOUT_S = 120;
    /** The spec's default CPU quota: 50 % of one CPU. */
    public static final int CPU_PERCENT = 50;

    private AgentLimits() {
    }

    public static Ceiling ceiling(TrustLevel trust) {
        return switch (trust) {
            case UNVERIFIED -> new Ceiling(false, 256, 30, 50);
            case COMMUNITY -> new Ceiling(true, 512, 60, 100);
            case OFFICIAL -> new Ceiling(true, 1024, 120, 200);
        };
    }

    public static Limits of(Permissions declared, TrustLevel trust) {
        Ceiling ceiling = ceiling(trust);
        int memory = Math.min(declared.maxMemoryMb() == null ? DEFAULT_MEMORY_MB : declared.maxMemoryMb(),
                ceiling.memoryMb());
        int timeout = Math.min(declared.maxExecutionS() == null ? GATEWAY_TIMEOUT_S : declared.maxExecutionS(),
                ceiling.timeoutS());
        // the cgroup cannot give more than the machine has (the sandbox's Limits refuse it)
        int cpu = Math.min(Math.min(declared.maxCpuPercent() == null ? CPU_PERCENT : declared.maxCpuPercent(),
                ceiling.cpuPercent()), 100 * Runtime.getRuntime().availableProcessors());
        Limits base = Limits.DEFAULTS;
        return new Limits(memory * Limits.MIB, cpu, base.maxProcesses(), Duration.ofSeconds(timeout),
                base.maxStdoutBytes(), base.maxStderrBytes(), base.tmpBytes());
    }

    /** The limits of {@link #of} and the grant of {@link #network} in the units a card declares them. */
    public record Effective(int memoryMb, int timeoutS, int cpuPercent, boolean network) {
    }

    public static Effective effective(Permissions declared, TrustLevel trust) {
        Limits limits = of(declared, trust);
        return new Effective((int) (limits.memoryBytes() / Limits.MIB), (int) limits.timeout().toSeconds(),
                limits.cpuPercent(), network(declared, trust));
    }

    /**
     * Network is granted when the card declares it and the trust level allows it ({@code community}'s "allowed" and
     * {@code official}'s "full" alike): the declared domains, or any public address when none is listed, reached only
     * through the run's egress proxy. The run keeps its own empty network namespace at every level; the host, its
     * loopback and the non-public ranges are never reached (see the sandbox's {@code AddressPolicy}).
     */
    public static boolean network(Permissions declared, TrustLevel trust) {
        return declared.network() && ceiling(trust).network();
    }
}
