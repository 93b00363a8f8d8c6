package dev.atrium.billing.entity;

import java.util.UUID;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;

/**
 * Ids of the journal's rows: time-ordered UUIDs (version 7, RFC 9562), so that new entries and lines are appended at
 * the right-hand end of their indexes (the primary keys, and the lines' entry key) rather than each written to a
 * random page; random ids made the journal's inserts the billing queue's largest cost. They reveal when a row was
 * made, which its {@code posted_at} shows anyway.
 */
final class LedgerIds {

    private static final TimeBasedEpochGenerator GENERATOR = Generators.timeBasedEpochGenerator();

    private LedgerIds() {
    }

    static UUID next() {
        return GENERATOR.generate();
    }
}
