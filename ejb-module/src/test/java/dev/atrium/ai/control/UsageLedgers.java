package dev.atrium.ai.control;

import java.time.Clock;

import jakarta.persistence.EntityManager;

/** The usage ledger wired as the container wires it, writing with the test's entity manager. */
public final class UsageLedgers {

    private UsageLedgers() {
    }

    public static UsageLedger of(EntityManager em, Clock clock) {
        var ledger = new UsageLedger();
        ledger.em = em;
        ledger.clock = clock;
        return ledger;
    }
}
