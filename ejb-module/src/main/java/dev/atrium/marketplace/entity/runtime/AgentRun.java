package dev.atrium.marketplace.entity.runtime;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One sandbox run of an agent for a caller, written once after the run. The input is stored as it entered the
 * sandbox (personal data masked); input and output are the caller's alone, the author sees the rest. The log is
 * the agent's stderr, masked and cut to {@value #LOG_MAX} characters.
 */
@Entity
@Table(name = "agent_runs")
public class AgentRun {

    public static final int LOG_MAX = 64 * 1024;
    public static final int JSON_MAX = 1024 * 1024;
    public static final int REASON_MAX = 1000;
    /** Stored instead of a JSON text longer than its column (only a pathological input or output comes close). */
    static final String TOO_LARGE = "{\"truncated\":true}";

    @Id
    private UUID id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Column(name = "agent_version", nullable = false, length = 64)
    private String agentVersion;

    @Column(name = "caller_id", nullable = false)
    private long callerId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private RunStatus status;

    @Column(name = "exit_reason", length = REASON_MAX)
    private String exitReason;

    @Column(name = "exit_code", nullable = false)
    private int exitCode;

    @Column(name = "duration_ms", nullable = false)
    private long durationMs;

    @Column(name = "input_json", nullable = false, length = JSON_MAX)
    private String inputJson;

    @Column(name = "output_json", length = JSON_MAX)
    private String outputJson;

    @Column(name = "masked_log", nullable = false, length = LOG_MAX + 100)
    private String maskedLog;

    @Column(name = "pii_in_output", nullable = false)
    private boolean piiInOutput;

    @Column(name = "pii_kinds", nullable = false, length = 200)
    private String piiKinds;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected AgentRun() {
    }

    /** What a finished run leaves on record; {@code exitReason} is null for a run that succeeded. */
    public record Facts(UUID id, UUID agentId, String agentVersion, long callerId, RunStatus status,
                        String exitReason, int exitCode, long durationMs, String maskedInput, String output,
                        String maskedLog, List<String> piiInOutput) {
    }

    public AgentRun(Facts f, Instant now) {
        this.id = f.id();
        this.agentId = f.agentId();
        this.agentVersion = f.agentVersion();
        this.callerId = f.callerId();
        this.status = f.status();
        this.exitReason = f.exitReason() == null ? null : cut(f.exitReason(), REASON_MAX);
        this.exitCode = f.exitCode();
        this.durationMs = Math.max(0, f.durationMs());
        this.inputJson = json(f.maskedInput());
        this.outputJson = f.output() == null ? null : json(f.output());
        this.maskedLog = f.maskedLog() == null ? "" : cut(f.maskedLog(), LOG_MAX);
        this.piiInOutput = !f.piiInOutput().isEmpty();
        this.piiKinds = cut(String.join(",", f.piiInOutput()), 200);
        this.createdAt = now;
    }

    private static String json(String text) {
        return text.length() <= JSON_MAX ? text : TOO_LARGE;
    }

    private static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end);
    }

    public boolean isCaller(long userId) {
        return callerId == userId;
    }

    public UUID id() {
        return id;
    }

    public UUID agentId() {
        return agentId;
    }

    public String agentVersion() {
        return agentVersion;
    }

    public long callerId() {
        return callerId;
    }

    public RunStatus status() {
        return status;
    }

    public String exitReason() {
        return exitReason;
    }

    public int exitCode() {
        return exitCode;
    }

    public long durationMs() {
        return durationMs;
    }

    public String inputJson() {
        return inputJson;
    }

    public String outputJson() {
        return outputJson;
    }

    public String maskedLog() {
        return maskedLog;
    }

    /**
     * The log as {@code viewer} may read it: the agent writes whatever it likes to stderr, the caller's input
     * included, so the log is the caller's alone (spec 03, Security 5); anyone else, the agent's author included,
     * gets null.
     */
    public String logFor(long viewer) {
        return isCaller(viewer) ? maskedLog : null;
    }

    public boolean piiInOutput() {
        return piiInOutput;
    }

    public List<String> piiKinds() {
        return piiKinds.isEmpty() ? List.of() : List.of(piiKinds.split(","));
    }

    public Instant createdAt() {
        return createdAt;
    }
}
