package dev.atrium.ai.control.tasks;

import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Schedule;
import jakarta.ejb.Stateless;

/**
 * Spec 02's scheduled job "cleanup of expired tasks", every 3600 s: deletes the tasks whose retention has passed.
 * Expired tasks are already invisible to their owners before this runs; the job only frees the rows. Every instance
 * runs it; a second run at the same moment finds nothing left to delete.
 */
@Stateless
public class TaskCleanup {

    private static final Logger LOG = Logger.getLogger(TaskCleanup.class.getName());

    @EJB
    TaskService tasks;

    @Schedule(hour = "*", minute = "0", persistent = false)
    void hourly() {
        run();
    }

    /** Deletes the expired tasks now; returns how many. */
    public int run() {
        int deleted = tasks.removeExpired();
        if (deleted > 0) {
            LOG.info(() -> "Task cleanup: deleted " + deleted + " expired task(s)");
        }
        return deleted;
    }
}
