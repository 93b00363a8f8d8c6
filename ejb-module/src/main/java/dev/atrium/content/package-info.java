/**
 * The blog content API of spec 02: articles, their tags and comments.
 *
 * <p>Owns: the {@code articles}, {@code tags}, {@code article_tags} and {@code comments} tables; drafting, editing,
 * publishing and deleting articles (author or administrator), visibility of drafts (their author only), comments
 * and who may remove them, tag usage counts over published articles.
 *
 * <p>Public operations: {@code ArticleService} (create, get, list, update, publish, delete, and their batch forms),
 * {@code CommentService} (add, list, delete), {@code TagService} (list); {@code ArticlesVersion} (the version of
 * what article lists show, changed after every committed article write, for the lists the web module keeps rendered).
 *
 * <p>Leaves out: users themselves; authors are referred to by id and named through the identity context's
 * {@code UserService}.
 *
 * <p>Its configuration lives in {@code control.ContentConfig}.
 */
package dev.atrium.content;
