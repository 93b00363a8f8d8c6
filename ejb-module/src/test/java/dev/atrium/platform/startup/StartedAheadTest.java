package dev.atrium.platform.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class StartedAheadTest {

    @Test
    void whenTakenThenWhatWasStartedIsHandedOutOnce() {
        var ahead = StartedAhead.begin("test-start", () -> "started");

        assertThat(ahead.take()).contains("started");
        assertThat(ahead.take()).isEmpty();
    }

    @Test
    void whenTheStartFailsThenTheTakerGetsItsException() {
        var ahead = StartedAhead.<String>begin("test-start", () -> {
            throw new IllegalStateException("journal locked");
        });

        assertThatThrownBy(ahead::take).isInstanceOf(IllegalStateException.class).hasMessage("journal locked");
    }

    @Test
    void whenTheStartThrowsAnErrorThenTheTakerGetsTheError() {
        var ahead = StartedAhead.<String>begin("test-start", () -> {
            throw new UnsatisfiedLinkError("no native library");
        });

        assertThatThrownBy(ahead::take).isInstanceOf(UnsatisfiedLinkError.class);
    }

    @Test
    void whenBegunThenTheStartRunsOnItsOwnNamedDaemonThreadWithTheCallersClassLoader() throws Exception {
        var loader = new URLClassLoader(new URL[0], getClass().getClassLoader());
        var seen = new AtomicReference<Thread>();
        var seenLoader = new AtomicReference<ClassLoader>();
        Thread caller = Thread.currentThread();
        ClassLoader previous = caller.getContextClassLoader();
        caller.setContextClassLoader(loader);
        StartedAhead<String> ahead;
        try {
            ahead = StartedAhead.begin("atrium-test-start", () -> {
                seen.set(Thread.currentThread());
                seenLoader.set(Thread.currentThread().getContextClassLoader());
                return "ok";
            });
        } finally {
            caller.setContextClassLoader(previous);
        }

        assertThat(ahead.take()).contains("ok");
        assertThat(seen.get()).isNotSameAs(caller);
        assertThat(seen.get().getName()).isEqualTo("atrium-test-start");
        assertThat(seen.get().isDaemon()).isTrue();
        assertThat(seenLoader.get()).isSameAs(loader);
    }
}
