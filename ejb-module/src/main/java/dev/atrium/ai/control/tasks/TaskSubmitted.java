package dev.atrium.ai.control.tasks;

import java.util.UUID;

import dev.atrium.platform.events.ApplicationEvent;

/** A task was recorded: a {@link TaskWorker} of the {@value TaskService#QUEUE} queue runs it. */
public record TaskSubmitted(UUID taskId) implements ApplicationEvent {

    @Override
    public String destination() {
        return TaskService.QUEUE;
    }

    @Override
    public String payload() {
        return taskId.toString();
    }
}
