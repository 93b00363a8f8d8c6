/**
 * Files: uploading, listing, reading and deleting a caller's files ({@code FileService}), their names made safe, the
 * parse job on the uploads' queue (Apache Tika in {@code FileParser}, {@code FileParseWorker}), and a deleted user's
 * stored bytes removed ({@code FilesOfDeletedUsers}); each queue's message-driven bean sits beside its handler.
 */
package dev.atrium.ai.control.files;
