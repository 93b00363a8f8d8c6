package dev.atrium.marketplace.boundary.submission;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The parts of a submission (multipart/form-data); only for the OpenAPI document. */
@Schema(description = "multipart/form-data with the parts card and bundle")
public record SubmissionForm(
        @Schema(required = true, description = "The agent card (JSON), valid against GET /v1/schemas/agent-card")
        String card,
        @Schema(format = "binary", nullable = true,
                description = "The agent's code as .tar.gz or .zip (at most 20 MB by default); needs runtime.entrypoint. "
                        + "Without it the card's runtime.docker_image is run")
        String bundle) {
}
