package dev.atrium.it.probe;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;

/**
 * The integration tests' witness that the EJB container's timers fire on Payara Micro without its data grid
 * ({@code --nohazelcast}, whose timer service keeps only non-persistent timers): both kinds the application uses, a
 * calendar schedule and a programmatic interval timer, each logging its first three rounds.
 */
@Singleton
@Startup
public class ItTimerProbe {

    public static final String LOGGED = "IT timer probe fired: ";
    private static final Logger LOG = Logger.getLogger(ItTimerProbe.class.getName());

    private final AtomicInteger scheduled = new AtomicInteger();
    private final AtomicInteger interval = new AtomicInteger();

    @Resource
    TimerService timers;

    @PostConstruct
    void start() {
        timers.createIntervalTimer(1000, 1000, new TimerConfig("it-interval", false));
    }

    @Schedule(hour = "*", minute = "*", second = "*/2", persistent = false)
    void everyTwoSeconds() {
        log("schedule", scheduled.incrementAndGet());
    }

    @Timeout
    void everySecond() {
        log("interval", interval.incrementAndGet());
    }

    private static void log(String kind, int round) {
        if (round <= 3) {
            LOG.info(LOGGED + kind + " " + round);
        }
    }
}
