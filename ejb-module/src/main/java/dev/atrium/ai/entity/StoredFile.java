package dev.atrium.ai.entity;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A file a user uploaded (spec 02's File): where the object lies in the object store, what it is, and how far the
 * parse job got. It moves {@code uploaded} → {@code processing} → {@code ready} or {@code failed}. Every start of
 * the parse job is an attempt with its number; only the current attempt of a file in {@code processing} may
 * record the outcome, so a superseded run (a duplicate message, a redelivery after a crash) can no longer touch it.
 * A finished file never changes again. The extracted text is a {@link FileText} of its own.
 */
@Entity
@Table(name = "files")
public class StoredFile {

    public static final int FILENAME_MAX = 500;
    public static final int TYPE_MAX = 255;
    public static final int STORAGE_PATH_MAX = 1000;
    static final int ERROR_MAX = 1000;

    @Id
    private UUID id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(nullable = false, length = FILENAME_MAX)
    private String filename;

    @Column(name = "file_type", nullable = false, length = TYPE_MAX)
    private String fileType;

    @Column(name = "file_size", nullable = false)
    private long fileSize;

    @Column(name = "storage_path", nullable = false, length = STORAGE_PATH_MAX)
    private String storagePath;

    @Column(nullable = false, length = 20)
    private String status;

    @Column(nullable = false)
    private String metadata;

    @Column(name = "text_length", nullable = false)
    private int textLength;

    @Column(name = "text_truncated", nullable = false)
    private boolean textTruncated;

    @Column(length = ERROR_MAX)
    private String error;

    @Column(nullable = false)
    private int attempts;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "processed_at")
    private Instant processedAt;

    protected StoredFile() {
    }

    public StoredFile(UUID id, long userId, String filename, String fileType, long fileSize, String storagePath,
                      Instant now) {
        this.id = Objects.requireNonNull(id, "id");
        this.userId = userId;
        this.filename = bounded(filename, FILENAME_MAX, "filename");
        this.fileType = bounded(fileType, TYPE_MAX, "fileType");
        if (fileSize < 0) {
            throw new IllegalArgumentException("A file cannot have a negative size");
        }
        this.fileSize = fileSize;
        this.storagePath = bounded(storagePath, STORAGE_PATH_MAX, "storagePath");
        this.status = FileStatus.UPLOADED.value();
        this.metadata = "{}";
        this.createdAt = Objects.requireNonNull(now, "now");
    }

    private static String bounded(String value, int max, String name) {
        if (value == null || value.isEmpty() || value.length() > max) {
            throw new IllegalArgumentException(name + " must have 1 to " + max + " characters");
        }
        return value;
    }

    /**
     * The parse job starts: a new attempt, whose number is returned. A file left in {@code processing} by a worker
     * that went away is simply started again.
     */
    public int start() {
        if (status().finished()) {
            throw new IllegalStateException("File " + id + " is " + status);
        }
        attempts++;
        status = FileStatus.PROCESSING.value();
        return attempts;
    }

    /** The attempt extracted the text: the file is {@code ready}; ignored unless {@code attempt} is current. */
    public boolean ready(int attempt, int textLength, boolean truncated, String metadataJson, Instant now) {
        if (!current(attempt)) {
            return false;
        }
        if (textLength < 0) {
            throw new IllegalArgumentException("A text cannot have a negative length");
        }
        this.textLength = textLength;
        this.textTruncated = truncated;
        this.metadata = metadataJson == null || metadataJson.isBlank() ? "{}" : metadataJson;
        this.error = null;
        finish(FileStatus.READY, now);
        return true;
    }

    /** The file cannot be read: it is {@code failed} with {@code reason}; ignored unless {@code attempt} is current. */
    public boolean fail(int attempt, String reason, Instant now) {
        if (!current(attempt)) {
            return false;
        }
        String value = reason == null || reason.isBlank() ? "unknown error" : reason;
        this.error = value.length() > ERROR_MAX ? value.substring(0, ERROR_MAX - 1) + "…" : value;
        finish(FileStatus.FAILED, now);
        return true;
    }

    private boolean current(int attempt) {
        return attempt == attempts && status() == FileStatus.PROCESSING;
    }

    private void finish(FileStatus outcome, Instant now) {
        status = outcome.value();
        processedAt = Objects.requireNonNull(now, "now");
    }

    public boolean ownedBy(long user) {
        return userId == user;
    }

    public UUID id() {
        return id;
    }

    public long userId() {
        return userId;
    }

    public String filename() {
        return filename;
    }

    public String fileType() {
        return fileType;
    }

    public long fileSize() {
        return fileSize;
    }

    public String storagePath() {
        return storagePath;
    }

    public FileStatus status() {
        return FileStatus.of(status);
    }

    /** A JSON object, {@code {}} until the file is ready. */
    public String metadata() {
        return metadata;
    }

    public int textLength() {
        return textLength;
    }

    public boolean textTruncated() {
        return textTruncated;
    }

    /** Why the file failed; null otherwise. */
    public String error() {
        return error;
    }

    public int attempts() {
        return attempts;
    }

    public Instant createdAt() {
        return createdAt;
    }

    /** When it became ready or failed. */
    public Instant processedAt() {
        return processedAt;
    }
}
