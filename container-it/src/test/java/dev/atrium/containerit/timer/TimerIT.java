package dev.atrium.containerit.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.ejb.EJB;

import org.assertj.core.api.Assertions;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.atrium.containerit.Await;
import dev.atrium.containerit.Libraries;

/** The EJB timer service of Payara Micro delivers a programmatic timer's timeout, and retries one rolled back. */
@ExtendWith(ArquillianExtension.class)
class TimerIT {

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "timers.war").addClasses(Reminders.class, Await.class)
                .addAsLibraries(Libraries.jarsOf(Assertions.class));
    }

    @EJB
    Reminders reminders;

    @Test
    void whenProgrammaticTimerIsDueThenItsTimeoutFiresOnce() {
        String info = "due-" + System.nanoTime();

        reminders.remind(info, Duration.ofMillis(200));

        Await.until("the timeout of " + info, Duration.ofSeconds(20), () -> reminders.fired().contains(info));
        assertThat(reminders.fired()).containsOnlyOnce(info);
    }

    @Test
    void whenTimeoutRollsBackThenContainerDeliversItAgain() {
        String info = Reminders.FAIL_ONCE + System.nanoTime();

        reminders.remind(info, Duration.ofMillis(100));

        // Payara retries a rolled-back timeout after its redelivery interval (5 s by default)
        Await.until("the second delivery of " + info, Duration.ofSeconds(30),
                () -> reminders.fired().stream().filter(info::equals).count() == 2);
    }
}
