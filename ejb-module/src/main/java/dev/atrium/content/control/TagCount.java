package dev.atrium.content.control;

import dev.atrium.content.entity.Tag;

/** A tag with the number of published articles carrying it. */
public record TagCount(Tag tag, long articleCount) {
}
