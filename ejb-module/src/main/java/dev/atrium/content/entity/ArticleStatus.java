package dev.atrium.content.entity;

/** Spec 02: an article is created as a draft and published by an explicit action. */
public enum ArticleStatus {
    DRAFT,
    PUBLISHED
}
