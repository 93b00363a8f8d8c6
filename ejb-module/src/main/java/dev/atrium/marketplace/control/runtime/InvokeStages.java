package dev.atrium.marketplace.control.runtime;

import java.util.Locale;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Where an invocation's time goes, as the timer {@value #METRIC} per stage: {@code admission} (the price decided and
 * held), {@code queue} (waiting for a sandbox slot), {@code sandbox} (the agent's run) and {@code recording} (the run
 * and its usage written). Admission is timed whatever it decides; a call refused for want of a slot has no queue
 * time, its refusal is counted by the request timer's 503.
 */
@ApplicationScoped
public class InvokeStages {

    public static final String METRIC = "atrium_invoke_stage_duration";

    /** The stages, in the order a call goes through them. */
    public enum Stage {
        ADMISSION, QUEUE, SANDBOX, RECORDING;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Inject
    MetricRegistry metrics;

    /** Starts timing {@code stage}; the time is recorded when the context is closed. */
    public Timer.Context start(Stage stage) {
        return metrics.timer(METRIC, new Tag("stage", stage.label())).time();
    }

    public <T> T time(Stage stage, Supplier<T> work) {
        try (var timing = start(stage)) {
            return work.get();
        }
    }
}
