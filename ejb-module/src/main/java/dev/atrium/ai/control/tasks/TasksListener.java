package dev.atrium.ai.control.tasks;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.messaging.Listener;

/**
 * The asynchronous tasks, {@link AiConfig#taskWorkers} at once (an annotation can only repeat its key and default:
 * MaxSessionTest keeps them equal); a task may call the model for minutes.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
        @ActivationConfigProperty(propertyName = "destination", propertyValue = TaskService.QUEUE),
        @ActivationConfigProperty(propertyName = "useJNDI", propertyValue = "false"),
        // the embedded broker may still be starting: the activation waits for it, quietly, up to 5 min
        @ActivationConfigProperty(propertyName = "initialConnectAttempts", propertyValue = "3000"),
        @ActivationConfigProperty(propertyName = "retryInterval", propertyValue = "100"),
        @ActivationConfigProperty(propertyName = "maxSession",
                propertyValue = "${MPCONFIG=atrium.ai.task-workers:4}")})
public class TasksListener extends Listener.OfQueue {

    @Override
    protected String destination() {
        return TaskService.QUEUE;
    }
}
