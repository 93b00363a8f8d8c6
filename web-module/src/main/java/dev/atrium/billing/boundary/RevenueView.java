package dev.atrium.billing.boundary;

import java.math.BigDecimal;
import java.util.List;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.control.Revenue;
import dev.atrium.marketplace.control.UsageQueries;

@Schema(description = "A developer's month: successful calls of their agents, what callers paid (gross) and the 70 % "
        + "share, per agent; pending (earned, not yet paid out, all months) and paid_out (all months)")
public record RevenueView(String month, long calls, BigDecimal gross,
                          @JsonbProperty("developer_share") BigDecimal developerShare, List<AgentLine> agents,
                          BigDecimal pending, @JsonbProperty("paid_out") BigDecimal paidOut, String currency) {

    @Schema(description = "One agent's month")
    public record AgentLine(@JsonbProperty("agent_id") String agentId, String name, long calls, BigDecimal gross,
                            @JsonbProperty("developer_share") BigDecimal developerShare) {

        static AgentLine from(UsageQueries.AgentRevenue a) {
            return new AgentLine(a.agentId().toString(), a.agentName(), a.calls(), a.gross(), a.developerShare());
        }
    }

    public static RevenueView from(Revenue.Month m) {
        return new RevenueView(m.month().toString(), m.calls(), m.gross(), m.developerShare(),
                m.agents().stream().map(AgentLine::from).toList(), m.pending(), m.paidOut(), "USD");
    }
}
