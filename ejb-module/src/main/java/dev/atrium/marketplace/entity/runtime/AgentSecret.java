package dev.atrium.marketplace.entity.runtime;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.marketplace.entity.Agent;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * A secret value an agent's author set for one environment variable of that agent, kept only sealed (nonce and
 * AES-GCM ciphertext, bound to the agent and the name); the value itself is never stored, shown or logged.
 */
@Entity
@Table(name = "agent_secrets")
public class AgentSecret {

    public static final int MAX_NAME_CHARS = 128;
    public static final int MAX_VALUE_BYTES = 4096;
    public static final int MAX_PER_AGENT = 20;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0," + (MAX_NAME_CHARS - 1) + "}");
    /** What the platform sets in every run (or in runs that call other agents): a secret would be overwritten. */
    static final Set<String> RESERVED = Set.of("PATH", "HOME", "LANG", "SCRATCH", "HTTP_PROXY", "HTTPS_PROXY",
            "http_proxy", "https_proxy", "ATRIUM_INVOKE_URL", "ATRIUM_INVOKE_TOKEN");

    @Id
    private UUID id;

    @Column(name = "agent_id", nullable = false)
    private UUID agentId;

    @Column(nullable = false, length = MAX_NAME_CHARS)
    private String name;

    @Column(nullable = false)
    private byte[] nonce;

    @Column(nullable = false)
    private byte[] ciphertext;

    @Column(name = "updated_by", nullable = false)
    private long updatedBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected AgentSecret() {
    }

    /** A new secret of the agent, set by its author. */
    public AgentSecret(Agent agent, String name, byte[] nonce, byte[] ciphertext, long userId, Instant now) {
        if (!agent.isAuthor(userId)) {
            throw BusinessException.notFound("Agent");
        }
        this.id = UUID.randomUUID();
        this.agentId = agent.id();
        this.name = checkedName(name);
        this.createdAt = now;
        replace(nonce, ciphertext, userId, now);
    }

    /** A new sealed value for the same agent and name. */
    public void replace(byte[] nonce, byte[] ciphertext, long userId, Instant now) {
        this.nonce = nonce.clone();
        this.ciphertext = ciphertext.clone();
        this.updatedBy = userId;
        this.updatedAt = now;
    }

    /** The name if it can be an environment variable an author may set; else 422 naming the rule. */
    public static String checkedName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new BusinessException(Problem.VALIDATION, "Invalid secret name",
                    "A name is 1 to " + MAX_NAME_CHARS + " letters, digits and underscores, not starting with a "
                            + "digit, as in permissions.allowed_env_vars");
        }
        if (RESERVED.contains(name)) {
            throw new BusinessException(Problem.VALIDATION, "Reserved secret name",
                    "The platform sets " + name + " itself in every run");
        }
        return name;
    }

    /** Refuses a value no run could receive: empty, with NUL, unpaired surrogates, or over 4 KiB in UTF-8 (413). */
    public static void checkValue(String value) {
        if (value == null || value.isEmpty()) {
            throw new BusinessException(Problem.VALIDATION, "Empty secret value",
                    "Send a non-empty value; DELETE removes a secret");
        }
        if (value.indexOf('\0') >= 0 || !StandardCharsets.UTF_8.newEncoder().canEncode(value)) {
            throw new BusinessException(Problem.VALIDATION, "Invalid secret value",
                    "A value is text without NUL characters or unpaired surrogates");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_VALUE_BYTES) {
            throw new BusinessException(Problem.PAYLOAD_TOO_LARGE, "Secret value too large",
                    "A value is at most " + MAX_VALUE_BYTES + " bytes in UTF-8");
        }
    }

    public UUID id() {
        return id;
    }

    public UUID agentId() {
        return agentId;
    }

    public String name() {
        return name;
    }

    public byte[] nonce() {
        return nonce.clone();
    }

    public byte[] ciphertext() {
        return ciphertext.clone();
    }

    public long updatedBy() {
        return updatedBy;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
