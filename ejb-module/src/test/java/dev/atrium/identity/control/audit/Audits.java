package dev.atrium.identity.control.audit;

import java.time.Clock;

import jakarta.persistence.EntityManager;

/** The audit service wired as the container wires it, writing with the test's entity manager. */
public final class Audits {

    private Audits() {
    }

    public static AuditService service(EntityManager em, Clock clock) {
        var writer = new AuditWriter();
        writer.em = em;
        var batches = new AuditBatches();
        batches.writer = writer;
        var audit = new AuditService();
        audit.em = em;
        audit.clock = clock;
        audit.batches = batches;
        return audit;
    }
}
