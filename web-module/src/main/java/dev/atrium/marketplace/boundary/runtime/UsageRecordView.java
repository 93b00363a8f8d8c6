package dev.atrium.marketplace.boundary.runtime;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.marketplace.entity.runtime.AgentUsage;

/** Spec 03's usage record: one invocation, what it used and what it cost. */
@Schema(description = "One usage record (spec 03): one invocation, what it used and what it cost (USD)")
public record UsageRecordView(String id, @JsonbProperty("run_id") String runId, @JsonbProperty("user_id") String userId,
                              @JsonbProperty("agent_id") String agentId,
                              @JsonbProperty("agent_version") String agentVersion, Instant timestamp,
                              @JsonbProperty("tokens_input") long tokensInput,
                              @JsonbProperty("tokens_output") long tokensOutput,
                              @JsonbProperty("execution_time_s") double executionTimeS,
                              @JsonbProperty("cost_llm") BigDecimal costLlm,
                              @JsonbProperty("cost_compute") BigDecimal costCompute,
                              @JsonbProperty("price_charged") BigDecimal priceCharged,
                              @JsonbProperty("developer_share") BigDecimal developerShare,
                              @JsonbProperty("pricing_model") String pricingModel, boolean succeeded) {

    public static UsageRecordView from(AgentUsage u) {
        return new UsageRecordView(u.id().toString(), u.runId().toString(), Long.toString(u.userId()),
                u.agentId().toString(), u.agentVersion(), u.timestamp(), u.tokensInput(), u.tokensOutput(),
                u.executionTimeS(), u.costLlm(), u.costCompute(), u.priceCharged(), u.developerShare(),
                u.pricingModel(), u.succeeded());
    }
}
