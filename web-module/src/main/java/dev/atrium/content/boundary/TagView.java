package dev.atrium.content.boundary;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.atrium.content.control.TagCount;
import dev.atrium.content.entity.Tag;

/** A tag with the number of published articles carrying it. */
@Schema(description = "A tag with the number of published articles carrying it")
public record TagView(long id, String name, String slug, long articleCount) {

    static TagView from(TagCount count) {
        return from(count.tag(), count.articleCount());
    }

    static TagView from(Tag tag, long count) {
        return new TagView(tag.id(), tag.name(), tag.slug(), count);
    }
}
