package dev.atrium.content.boundary;

import java.util.List;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** The body of a batch delete: {@code {"ids": [...]}}. */
public record IdsRequest(@NotNull @Size(min = 1, max = 100) List<Long> ids) {
}
