package dev.atrium.content.boundary;

import java.util.List;

/** The answer of a batch create or update: the resulting articles, in request order. */
public record ArticleBatch(List<ArticleView> items) {
}
