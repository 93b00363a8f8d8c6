package dev.atrium.marketplace.boundary.submission;

import java.math.BigDecimal;

import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A user's review of an agent: a whole rating from 1 to 5 (read as a number first, so that 4.5 is refused rather than
 * cut to 4) and a comment, which may be empty, plain text without control characters.
 */
public record AgentReviewRequest(
        @NotNull @Min(1) @Max(5) @Digits(integer = 1, fraction = 0, message = "must be a whole number from 1 to 5")
        @Schema(description = "1 to 5", type = SchemaType.INTEGER) BigDecimal rating,
        @NotNull @Size(max = 4000)
        @Pattern(regexp = "[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]*", message = "must not hold control characters")
        String comment) {
}
