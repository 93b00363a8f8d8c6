package dev.atrium.ai.boundary.tasks;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import dev.atrium.ai.entity.Task;

/** Spec 02's TaskRequest: the prompt to generate from, and the model (the configured default when absent). */
public record TaskRequest(
        @NotBlank @Size(max = Task.PROMPT_MAX) String prompt,
        @Size(max = Task.MODEL_MAX) String model) {
}
