package dev.atrium.marketplace.entity.runtime;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import dev.atrium.marketplace.entity.Pricing;
import dev.atrium.platform.persistence.NullableUuidConverter;

import org.eclipse.persistence.annotations.Convert;
import org.eclipse.persistence.annotations.Converter;

/**
 * The spec's usage record of one invocation, plus the agent version, the run and the pricing model that set the
 * price. Immutable: written once in the transaction that announces it ({@code UsageRecorded}); billing builds on it.
 * A failed run is recorded at price 0.
 */
@Entity
@Table(name = "agent_usage_records")
public class AgentUsage {

    @Id
    private UUID id;

    @Column(name = "run_id", nullable = false, updatable = false)
    private UUID runId;

    @Column(name = "user_id", nullable = false, updatable = false)
    private long userId;

    @Column(name = "agent_id", nullable = false, updatable = false)
    private UUID agentId;

    @Column(name = "agent_version", nullable = false, updatable = false, length = 64)
    private String agentVersion;

    @Column(name = "recorded_at", nullable = false, updatable = false)
    private Instant timestamp;

    @Column(name = "tokens_input", nullable = false, updatable = false)
    private long tokensInput;

    @Column(name = "tokens_output", nullable = false, updatable = false)
    private long tokensOutput;

    @Column(name = "execution_time_s", nullable = false, updatable = false)
    private double executionTimeS;

    @Column(name = "cost_llm", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal costLlm;

    @Column(name = "cost_compute", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal costCompute;

    @Column(name = "price_charged", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal priceCharged;

    @Column(name = "developer_share", nullable = false, updatable = false, precision = 19, scale = 6)
    private BigDecimal developerShare;

    @Column(name = "pricing_model", nullable = false, updatable = false, length = 20)
    private String pricingModel;

    @Column(nullable = false, updatable = false)
    private boolean succeeded;

    @Column(name = "hold_id", updatable = false)
    @Converter(name = "usageHoldId", converterClass = NullableUuidConverter.class)
    @Convert("usageHoldId")
    private UUID holdId;

    @Column(name = "max_charge", updatable = false, precision = 19, scale = 6)
    private BigDecimal maxCharge;

    @Column(name = "parent_run_id", updatable = false)
    @Converter(name = "usageParentRunId",
            converterClass = NullableUuidConverter.class)
    @Convert("usageParentRunId")
    private UUID parentRunId;

    @Column(name = "root_run_id", updatable = false)
    @Converter(name = "usageRootRunId", converterClass = NullableUuidConverter.class)
    @Convert("usageRootRunId")
    private UUID rootRunId;

    protected AgentUsage() {
    }

    /**
     * What one invocation used and costs. {@code charge}: the price admission decided and held ({@code holdId});
     * {@code parentRunId} and {@code rootRunId}: for a dependency call, the run that called it and the invocation
     * whose price cap it counts against (null for a caller's own call).
     */
    public record Facts(UUID runId, long userId, UUID agentId, String agentVersion, long tokensInput,
                        long tokensOutput, double executionTimeS, BigDecimal costLlm, BigDecimal costCompute,
                        boolean succeeded, UUID holdId, Pricing.Charge charge, UUID parentRunId, UUID rootRunId) {
    }

    /**
     * The record of {@code f} priced as admission decided ({@code f.charge()}): a successful call pays the decided
     * price, never more than was held (70 % of it to the developer), a failed one nothing.
     */
    public static AgentUsage of(UUID id, Facts f, Instant now) {
        var usage = new AgentUsage();
        usage.id = id;
        usage.runId = f.runId();
        usage.userId = f.userId();
        usage.agentId = f.agentId();
        usage.agentVersion = f.agentVersion();
        usage.timestamp = now;
        usage.tokensInput = Math.max(0, f.tokensInput());
        usage.tokensOutput = Math.max(0, f.tokensOutput());
        usage.executionTimeS = Math.max(0, f.executionTimeS());
        usage.costLlm = Pricing.money(f.costLlm());
        usage.costCompute = Pricing.money(f.costCompute());
        usage.priceCharged = f.charge().price(usage.tokensInput + usage.tokensOutput, f.succeeded());
        usage.developerShare = Pricing.developerShare(usage.priceCharged);
        usage.pricingModel = f.charge().pricing().model().value();
        usage.succeeded = f.succeeded();
        usage.holdId = f.holdId();
        usage.maxCharge = f.charge().max();
        usage.parentRunId = f.parentRunId();
        usage.rootRunId = f.rootRunId();
        return usage;
    }

    public UUID id() {
        return id;
    }

    /** The balance hold placed before the run, which billing settles with this record; null for a free call. */
    public UUID holdId() {
        return holdId;
    }

    /** The most this call could cost, as admission decided and held it; null on records older than that rule. */
    public BigDecimal maxCharge() {
        return maxCharge;
    }

    public UUID parentRunId() {
        return parentRunId;
    }

    public UUID rootRunId() {
        return rootRunId;
    }

    public UUID runId() {
        return runId;
    }

    public long userId() {
        return userId;
    }

    public UUID agentId() {
        return agentId;
    }

    public String agentVersion() {
        return agentVersion;
    }

    public Instant timestamp() {
        return timestamp;
    }

    public long tokensInput() {
        return tokensInput;
    }

    public long tokensOutput() {
        return tokensOutput;
    }

    public double executionTimeS() {
        return executionTimeS;
    }

    public BigDecimal costLlm() {
        return costLlm;
    }

    public BigDecimal costCompute() {
        return costCompute;
    }

    public BigDecimal priceCharged() {
        return priceCharged;
    }

    public BigDecimal developerShare() {
        return developerShare;
    }

    public String pricingModel() {
        return pricingModel;
    }

    public boolean succeeded() {
        return succeeded;
    }
}
