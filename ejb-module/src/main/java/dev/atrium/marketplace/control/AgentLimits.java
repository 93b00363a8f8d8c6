package dev.atrium.marketplace.control;

import java.time.Duration;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.TrustLevel;
import dev.atrium.sandbox.Limits;

/**
 * The limits an agent runs with, decided in one place (README, "The sandbox"): memory = min(declared, or 256 MB when
 * undeclared; the trust ceiling); timeout = min(declared, or the gateway's 120 s when undeclared; the trust ceiling);
 * CPU 50 % of one CPU; network only when declared and the trust level allows it.
 */
public final class AgentLimits {

    /** The spec's ceilings per trust level: network, memory, timeout. */
    public record Ceiling(boolean network, int memoryMb, int timeoutS) {
    }

    public static final int DEFAULT_MEMORY_MB = 256;
    public static final int GATEWAY_TIMEOUT_S = 120;
    public static final int CPU_PERCENT = 50;

    private AgentLimits() {
    }

    public static Ceiling ceiling(TrustLevel trust) {
        return switch (trust) {
            case UNVERIFIED -> new Ceiling(false, 256, 30);
            case COMMUNITY -> new Ceiling(true, 512, 60);
            case OFFICIAL -> new Ceiling(true, 1024, 120);
        };
    }

    public static Limits of(Permissions declared, TrustLevel trust) {
        Ceiling ceiling = ceiling(trust);
        int memory = Math.min(declared.maxMemoryMb() == null ? DEFAULT_MEMORY_MB : declared.maxMemoryMb(),
                ceiling.memoryMb());
        int timeout = Math.min(declared.maxExecutionS() == null ? GATEWAY_TIMEOUT_S : declared.maxExecutionS(),
                ceiling.timeoutS());
        Limits base = Limits.DEFAULTS;
        return new Limits(memory * Limits.MIB, CPU_PERCENT, base.maxProcesses(), Duration.ofSeconds(timeout),
                base.maxStdoutBytes(), base.maxStderrBytes(), base.tmpBytes());
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
