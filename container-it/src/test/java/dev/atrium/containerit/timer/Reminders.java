package dev.atrium.containerit.timer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.Resource;
import jakarta.ejb.EJBContext;
import jakarta.ejb.Singleton;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;

/**
 * Sets short single-action timers and records each timeout it receives. A timer whose info starts with
 * {@value #FAIL_ONCE} rolls its first timeout's transaction back, as a failed scheduled job of the product would.
 */
@Singleton
public class Reminders {

    static final String FAIL_ONCE = "fail-once:";

    @Resource
    TimerService timers;

    @Resource
    EJBContext context;

    private final List<String> fired = new CopyOnWriteArrayList<>();

    /** A timer that is not persistent (no timer store needed), due after {@code delay}. */
    public void remind(String info, Duration delay) {
        timers.createSingleActionTimer(delay.toMillis(), new TimerConfig(info, false));
    }

    @Timeout
    void timeout(Timer timer) {
        String info = (String) timer.getInfo();
        fired.add(info);
        if (info.startsWith(FAIL_ONCE) && fired.stream().filter(info::equals).count() == 1) {
            context.setRollbackOnly();
        }
    }

    /** The infos of the timeouts received so far, in order. */
    public List<String> fired() {
        return List.copyOf(fired);
    }
}
