package dev.atrium.marketplace.control.quality;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.marketplace.control.AgentChanges;
import dev.atrium.marketplace.control.AgentRepository;
import dev.atrium.marketplace.control.MarketplaceConfig;
import dev.atrium.marketplace.control.trust.TrustService;
import dev.atrium.marketplace.entity.Agent;
import dev.atrium.marketplace.entity.AgentAction;
import dev.atrium.marketplace.entity.AgentEvent;
import dev.atrium.marketplace.entity.AgentStatus;
import dev.atrium.marketplace.entity.quality.AgentQuality;
import dev.atrium.marketplace.entity.quality.QualityScore;

/**
 * The quality-scoring job's work for a slice of listed agents, one transaction per slice: each agent's figures over
 * the window ({@link QualityScore}) stored and set on the agent with its ranking; its success rate per UTC day for
 * the last {@value #DAYS} days; an automatic takedown when the success rate stayed below 50 % on each of the last 7
 * complete days (each with at least one call: a day without calls breaks the run, since nothing failed); and the
 * trust promotion rule.
 */
@Stateless
public class QualityScoring {

    private static final Logger LOG = Logger.getLogger(QualityScoring.class.getName());

    /** The days of daily success rates kept up to date on each run: the 7 complete ones and today. */
    static final int DAYS = 8;
    /** The complete days below 50 % that take a listed agent down. */
    public static final int FAILING_DAYS = 7;
    /** The history's reason code of that takedown. */
    public static final String LOW_SUCCESS_RATE = "low_success_rate";

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    QualityMeasure measure;

    @EJB
    TrustService trust;

    @EJB
    AgentRepository agents;

    @Inject
    AgentChanges changes;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperties
    MarketplaceConfig config;

    /** Listed agents after {@code after} (null: from the first) in id order, at most {@code limit}. */
    public List<UUID> listed(UUID after, int limit) {
        return agents.activeIds(after, limit);
    }

    /** Scores these agents as of now; answers how many it took down. */
    public int score(List<UUID> agentIds) {
        Instant now = clock.instant();
        int takenDown = 0;
        for (UUID id : agentIds) {
            Agent agent = em.find(Agent.class, id, LockModeType.PESSIMISTIC_WRITE);
            if (agent == null || !agent.isActive()) {
                continue;
            }
            QualityScore q = measure.measure(id, null, now.minus(Duration.ofDays(config.qualityWindowDays)), now);
            AgentQuality stored = Optional.ofNullable(em.find(AgentQuality.class, id)).orElseGet(() -> {
                var fresh = new AgentQuality(id);
                em.persist(fresh);
                return fresh;
            });
            stored.measured(q, config.qualityWindowDays, now);
            agent.scored(q.score(), now);
            if (daily(agent, now)) {
                takenDown++;
            }
            trust.reconsider(id);
        }
        return takenDown;
    }

    /** A day's calls and successes. */
    record Day(LocalDate day, long calls, long successes) {

        boolean failing() {
            return calls > 0 && successes * 2 < calls;
        }
    }

    /** Keeps the daily rates of the last days; takes the agent down after 7 failing days. Answers true if it did. */
    private boolean daily(Agent agent, Instant now) {
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        LocalDate first = today.minusDays(DAYS - 1);
        // one pass over the agent's records of these days; parameters bound in the order they appear
        var sql = new StringBuilder("SELECT ");
        var parameters = new ArrayList<Object>();
        for (int i = 0; i < DAYS; i++) {
            Timestamp from = start(first.plusDays(i));
            Timestamp to = start(first.plusDays(i + 1));
            sql.append(i == 0 ? "" : ", ")
                    .append("SUM(CASE WHEN recorded_at >= ? AND recorded_at < ? THEN 1 ELSE 0 END), ")
                    .append("SUM(CASE WHEN recorded_at >= ? AND recorded_at < ? AND succeeded THEN 1 ELSE 0 END)");
            parameters.addAll(List.of(from, to, from, to));
        }
        sql.append(" FROM agent_usage_records WHERE agent_id = ? AND recorded_at >= ? AND recorded_at < ?");
        parameters.addAll(List.of(agent.id(), start(first), start(today.plusDays(1))));
        var query = em.createNativeQuery(sql.toString());
        for (int i = 0; i < parameters.size(); i++) {
            query.setParameter(i + 1, parameters.get(i));
        }
        Object[] row = (Object[]) query.getSingleResult();
        var days = new ArrayList<Day>();
        for (int i = 0; i < DAYS; i++) {
            days.add(new Day(first.plusDays(i), number(row[2 * i]), number(row[2 * i + 1])));
        }
        em.createNativeQuery("DELETE FROM agent_daily_quality WHERE agent_id = ? AND on_day >= ?")
                .setParameter(1, agent.id()).setParameter(2, Date.valueOf(first)).executeUpdate();
        for (Day d : days) {
            if (d.calls() > 0) {
                em.createNativeQuery("INSERT INTO agent_daily_quality (agent_id, on_day, calls, successes) "
                                + "VALUES (?, ?, ?, ?)")
                        .setParameter(1, agent.id()).setParameter(2, Date.valueOf(d.day()))
                        .setParameter(3, d.calls()).setParameter(4, d.successes()).executeUpdate();
            }
        }
        List<Day> complete = days.subList(DAYS - 1 - FAILING_DAYS, DAYS - 1);
        if (!complete.stream().allMatch(Day::failing)) {
            return false;
        }
        agent.takeDown(now);
        String reason = "Success rate below 50 % on each of the " + FAILING_DAYS + " days " + complete.get(0).day()
                + " to " + complete.get(complete.size() - 1).day() + ": " + String.join(", ", complete.stream()
                .map(d -> d.successes() + "/" + d.calls()).toList());
        em.persist(new AgentEvent(agent, AgentAction.TAKEN_DOWN, AgentStatus.ACTIVE, 0, LOW_SUCCESS_RATE, reason,
                now));
        changes.changed(agent);
        LOG.warning(() -> "Agent " + agent.id() + " taken down: " + reason);
        return true;
    }

    private static Timestamp start(LocalDate day) {
        return Timestamp.from(day.atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }

    /** The stored figures of an agent, if the job measured it. */
    public Optional<AgentQuality> figures(UUID agentId) {
        return Optional.ofNullable(em.find(AgentQuality.class, agentId));
    }

    public int windowDays() {
        return config.qualityWindowDays;
    }
}
