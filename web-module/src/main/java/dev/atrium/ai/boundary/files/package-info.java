/**
 * Files: uploading (under the tier's size limit, checked by a filter before the body is read), listing, reading the
 * parsed text of, and deleting a caller's files.
 */
package dev.atrium.ai.boundary.files;
