package dev.atrium.marketplace.control.rollout;

import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

/**
 * Evaluates the rollouts in progress every minute. Each instance runs it; every agent is judged under its row lock
 * and a move is made once (the next instance finds it made), and only agents rolling out are read.
 */
@Singleton
public class RolloutTimer {

    @EJB
    RolloutService rollouts;

    @Schedule(hour = "*", minute = "*", persistent = false)
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    void everyMinute() {
        rollouts.evaluateAll();
    }
}
