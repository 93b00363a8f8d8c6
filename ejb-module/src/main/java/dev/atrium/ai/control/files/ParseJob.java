package dev.atrium.ai.control.files;

import java.util.UUID;

/** One attempt of the parse job on a file: what the worker needs to read it, and the attempt's number. */
public record ParseJob(UUID fileId, String storagePath, String fileType, String filename, int attempt) {
}
