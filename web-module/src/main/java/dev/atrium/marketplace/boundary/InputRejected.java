package dev.atrium.marketplace.boundary;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.platform.boundary.http.ErrorResponse;
import dev.atrium.platform.error.Problem;

/**
 * Spec 03's answer to an input that does not satisfy the card, {@code {valid: false, error}}, inside the platform's
 * error envelope. The envelope already owns {@code error} (an object), so the spec's error text, naming the missing
 * or wrongly typed fields, is {@code error.details}.
 */
public record InputRejected(
        ErrorResponse.ErrorBody error,
        @Schema(description = "Always false here: the input did not satisfy the agent's input_schema") boolean valid) {

    public static InputRejected of(String problems) {
        var envelope = ErrorResponse.of(Problem.VALIDATION, "The input does not match the agent's input_schema",
                problems);
        return new InputRejected(envelope.error(), false);
    }
}
