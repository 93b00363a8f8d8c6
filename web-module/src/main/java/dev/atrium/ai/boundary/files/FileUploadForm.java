package dev.atrium.ai.boundary.files;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The parts of an upload (multipart/form-data); only for the OpenAPI document. */
@Schema(description = "multipart/form-data with the part file")
public record FileUploadForm(
        @Schema(required = true, format = "binary",
                description = "The file, with its name (filename) and content type in the part's headers; at most "
                        + "the tier's max_file_size_mb (10 MiB)")
        String file) {
}
