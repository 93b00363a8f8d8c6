package dev.atrium.billing.boundary;

import java.time.Instant;

import jakarta.json.bind.annotation.JsonbProperty;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.billing.entity.JournalEntry;

/** A posted journal entry as an administrator sees it. */
@Schema(description = "A posted journal entry")
public record EntryView(String id, String kind, String reference, @JsonbProperty("actor_id") String actorId,
                        String memo, @JsonbProperty("posted_at") Instant postedAt) {

    public static EntryView from(JournalEntry e) {
        return new EntryView(e.id().toString(), e.kind().value(), e.reference(),
                e.actorId() == null ? null : e.actorId().toString(), e.memo(), e.postedAt());
    }
}
