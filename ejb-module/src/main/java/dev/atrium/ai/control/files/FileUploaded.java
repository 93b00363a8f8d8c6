package dev.atrium.ai.control.files;

import java.util.UUID;

import dev.atrium.platform.events.ApplicationEvent;

/** A file was stored and recorded: a {@link FileParseWorker} of the {@value FileService#QUEUE} queue reads it. */
public record FileUploaded(UUID fileId) implements ApplicationEvent {

    @Override
    public String destination() {
        return FileService.QUEUE;
    }

    @Override
    public String payload() {
        return fileId.toString();
    }
}
