package dev.atrium.marketplace.boundary.submission;

import java.util.List;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;

/** Why a reviewer turned a submission down; the author reads these in the agent's history. */
public record RejectRequest(@NotEmpty @Size(max = 20) List<@NotBlank @Size(max = 500) String> reasons) {
}
