package dev.atrium.billing.boundary;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.control.LedgerQueries;

/** One line of a user's statement: the amount on their balance and the journal entry it belongs to. */
@Schema(description = "One line of the caller's statement: the amount on their balance (negative: spent) and its entry")
public record StatementLineView(String id, @JsonbProperty("entry_id") String entryId, String kind, String reference,
                                String memo, BigDecimal amount, @JsonbProperty("posted_at") Instant postedAt) {

    public static StatementLineView from(LedgerQueries.StatementLine l) {
        return new StatementLineView(l.id().toString(), l.entryId().toString(), l.kind(), l.reference(), l.memo(),
                l.amount(), l.postedAt());
    }
}
