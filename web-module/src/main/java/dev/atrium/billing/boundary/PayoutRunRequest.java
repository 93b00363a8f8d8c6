package dev.atrium.billing.boundary;

import jakarta.validation.constraints.Size;

/** Which month to settle: YYYY-MM, or the previous month when absent. */
public record PayoutRunRequest(@Size(max = 7) String month) {
}
