package db.migration;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import dev.atrium.marketplace.entity.Pricing;

/**
 * Installations of agents (issue 50): one row per user and agent, kept when the user uninstalls
 * ({@code uninstalled_at}) so that {@code agents.downloads} counts distinct users who ever installed, once each.
 * And the agent's listed price as a number ({@code agents.price_usd}) for the {@code price_min}/{@code price_max}
 * filters: the card's {@code pricing.price_usd}, 0 without pricing. A Java migration because existing rows take
 * their price from the pricing JSON, which neither database reads the same way in SQL.
 */
public class V74__agent_installations extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        var connection = context.getConnection();
        try (var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE agent_installations ("
                    + " id UUID PRIMARY KEY,"
                    + " agent_id UUID NOT NULL REFERENCES agents (id) ON DELETE CASCADE,"
                    + " user_id BIGINT NOT NULL,"
                    + " installed_at TIMESTAMP WITH TIME ZONE NOT NULL,"
                    + " uninstalled_at TIMESTAMP WITH TIME ZONE,"
                    + " created_at TIMESTAMP WITH TIME ZONE NOT NULL,"
                    + " CONSTRAINT uq_agent_installations_user UNIQUE (agent_id, user_id))");
            statement.execute("CREATE INDEX ix_agent_installations_user ON agent_installations (user_id, installed_at)");
            statement.execute("ALTER TABLE agents ADD COLUMN price_usd NUMERIC(19, 6) DEFAULT 0 NOT NULL");
            statement.execute("CREATE INDEX ix_agents_status_price ON agents (status, price_usd)");
        }
        var prices = new LinkedHashMap<Object, BigDecimal>();
        try (var statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT id, pricing FROM agents")) {
            while (rows.next()) {
                prices.put(rows.getObject(1), listedPrice(rows.getString(2)));
            }
        }
        try (var update = connection.prepareStatement("UPDATE agents SET price_usd = ? WHERE id = ?")) {
            for (Map.Entry<Object, BigDecimal> e : prices.entrySet()) {
                update.setBigDecimal(1, e.getValue());
                update.setObject(2, e.getKey());
                update.addBatch();
            }
            update.executeBatch();
        }
    }

    private static BigDecimal listedPrice(String pricingJson) {
        try {
            return Pricing.money(Pricing.of(pricingJson).priceUsd());
        } catch (RuntimeException unreadable) {
            // a row whose pricing cannot be read is charged as free (Pricing.of), so it is listed at 0
            return Pricing.money(BigDecimal.ZERO);
        }
    }
}
