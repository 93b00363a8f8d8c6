package dev.atrium.ai.control.files;

import java.io.InputStream;

/**
 * A file as the client sent it: the name and content type it gave (either may be missing) and the content,
 * which is read once, while it is stored.
 */
public record FileUpload(String filename, String contentType, InputStream content) {
}
