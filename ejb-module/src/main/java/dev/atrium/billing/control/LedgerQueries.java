package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.JournalEntry;
import dev.atrium.billing.entity.JournalLine;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/** A user's statement: the lines on their balance account with the entry each belongs to, newest first. */
@Stateless
public class LedgerQueries {

    /** One line of a statement. */
    public record StatementLine(UUID id, UUID entryId, String kind, String reference, String memo, BigDecimal amount,
                                Instant postedAt) {
    }

    static final Catalog<JournalLine> LINES = Catalog.of(JournalLine.class).id("id", UUID.class)
            .createdAt("postedAt");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    Ledger ledger;

    public Listing<StatementLine> statement(long userId, ListQuery query) {
        UUID account = ledger.account(AccountKind.USER_BALANCE, userId).id();
        Listing<JournalLine> lines = new EntityQuery<>(em, LINES).list(query,
                (cb, q, root) -> cb.equal(root.get("accountId"), account));
        var ids = lines.items().stream().map(JournalLine::entryId).distinct().toList();
        Map<UUID, JournalEntry> entries = ids.isEmpty() ? Map.of() : em.createQuery(
                        "SELECT e FROM JournalEntry e WHERE e.id IN :ids", JournalEntry.class)
                .setParameter("ids", ids).getResultStream()
                .collect(Collectors.toMap(JournalEntry::id, Function.identity()));
        return lines.map(l -> {
            JournalEntry e = entries.get(l.entryId());
            return new StatementLine(l.id(), l.entryId(), e.kind().value(), e.reference(), e.memo(), l.amount(),
                    l.postedAt());
        });
    }
}
