package dev.atrium.platform.boundary.http;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.platform.error.Problem;

/** The error envelope of every 4xx and 5xx answer: {@code {"error": {code, message, details, doc_url}}}. */
@Schema(name = "Error", description = "Error envelope", requiredProperties = "error")
public record ErrorResponse(ErrorBody error) {

    @Schema(name = "ErrorBody", requiredProperties = {"code", "message"})
    public record ErrorBody(
            @Schema(description = "Business code: 5 digits, or the HTTP status times 100", example = "40001")
            int code,
            @Schema(description = "What went wrong, for people") String message,
            @Schema(description = "Which input or rule, when known", nullable = true) String details,
            @Schema(description = "Where to read more", nullable = true) String docUrl) {
    }

    public static ErrorResponse of(Problem problem, String message, String details) {
        return new ErrorResponse(new ErrorBody(problem.code(), message, details, null));
    }

    public static ErrorResponse of(int code, String message, String details) {
        return new ErrorResponse(new ErrorBody(code, message, details, null));
    }
}
