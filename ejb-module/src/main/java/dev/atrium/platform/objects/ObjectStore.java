package dev.atrium.platform.objects;

import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * Object storage for files, reports and agent bundles: an S3 bucket in production, a directory under the data
 * directory by default; both pass one contract test suite. Keys are relative paths of segments separated by
 * {@code /}, each segment free of path tricks ({@code ..}, absolute paths, control characters).
 */
public interface ObjectStore {

    /** Stores the stream under {@code key}, replacing what was there; answers the number of bytes stored. */
    long put(String key, InputStream content, String contentType);

    /** The object's content and metadata, when it exists. The caller closes the stream. */
    Optional<StoredObject> get(String key);

    /** {@code true} when an object was removed. */
    boolean delete(String key);

    /** The keys under a prefix, in lexical order. */
    List<String> list(String prefix);

    /** {@code s3} or {@code file}. */
    String kind();

    /**
     * Whether the store answers now and would take a write: the bucket with these credentials, or the directory. For
     * operators (the console's system screen), never on a request's path: for S3 it is a request of its own.
     */
    boolean reachable();

    /** An object read back: its content, type and size. */
    record StoredObject(InputStream content, String contentType, long size) {
    }

    /** Refuses keys that could escape the store or confuse it. */
    static String checkedKey(String key) {
        if (key == null || key.isEmpty() || key.length() > 1024 || key.startsWith("/") || key.endsWith("/")
                || key.contains("\\") || key.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("Invalid object key");
        }
        for (String segment : key.split("/")) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("Invalid object key");
            }
        }
        return key;
    }
}
