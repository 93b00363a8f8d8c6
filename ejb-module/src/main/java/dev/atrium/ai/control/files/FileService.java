package dev.atrium.ai.control.files;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import dev.atrium.ai.entity.FileStatus;
import dev.atrium.ai.entity.FileText;
import dev.atrium.ai.entity.StoredFile;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.events.ApplicationEvents;
import dev.atrium.platform.http.BodyLimit;
import dev.atrium.platform.objects.ObjectStore;
import dev.atrium.platform.objects.ObjectStoreException;
import dev.atrium.platform.query.Catalog;
import dev.atrium.platform.query.EntityQuery;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.query.Listing;

/**
 * Uploaded files as use cases, each method one short transaction. An upload streams the content into the object store
 * under {@code <user_id>/<file id>/<sanitised name>}, counting as it goes and stopping with 413 past the caller's
 * limit, records the file ({@code uploaded}) with its {@link FileUploaded} event, which the outbox relay hands to the
 * {@value #QUEUE} queue after the commit; if the transaction rolls back, the object is removed again. The
 * {@link FileParseWorker} moves the file on through {@link #start} and {@link #ready} or {@link #fail}, which lock the
 * row so that only the current attempt decides. Files are their owner's alone: anyone else's is "not found".
 */
@Stateless
public class FileService {

    public static final String QUEUE = "file-parse";
    static final int DETECTION_BUFFER = 64 * 1024;

    private static final Logger LOG = Logger.getLogger(FileService.class.getName());

    static final Catalog<StoredFile> CATALOG = Catalog.of(StoredFile.class)
            .id("id", UUID.class)
            .filterable("status", "status", String.class)
            .filterable("file_type", "fileType", String.class)
            .sortable("file_size", "fileSize", Long.class, true)
            .sortable("filename", "filename", String.class, true)
            .search("filename");

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @Inject
    ApplicationEvents events;

    @Inject
    ObjectStore objects;

    @Inject
    FileParsers parsers;

    @Inject
    Clock clock;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    /**
     * Stores the upload for {@code userId} and queues its parsing. The content type is the client's when it names
     * one (other than {@code application/octet-stream}), else detected from the first bytes and the name.
     *
     * @param maxBytes the caller's largest file; a longer stream is refused with 413 as soon as it passes it
     */
    public StoredFile upload(long userId, FileUpload upload, long maxBytes) {
        String name = FileNames.sanitise(upload.filename());
        UUID id = UUID.randomUUID();
        String key = userId + "/" + id + "/" + name;
        var content = new BufferedInputStream(upload.content(), DETECTION_BUFFER);
        String type = FileParser.declaredType(upload.contentType(), StoredFile.TYPE_MAX)
                .orElseGet(() -> parsers.get().detect(content, name));
        long size;
        try {
            size = objects.put(key, BodyLimit.bound(content, maxBytes, () -> tooLarge(maxBytes)), type);
        } catch (ObjectStoreException | UncheckedIOException e) {
            LOG.log(Level.WARNING, e, () -> "Could not store upload " + key);
            throw new BusinessException(Problem.UNAVAILABLE, "The file could not be stored; try again later");
        }
        removeUnlessCommitted(key);
        var file = new StoredFile(id, userId, name, type, size, key, clock.instant());
        em.persist(file);
        events.publish(new FileUploaded(id));
        return file;
    }

    /** 413 with the limit in the details. */
    public static BusinessException tooLarge(long maxBytes) {
        return new BusinessException(Problem.PAYLOAD_TOO_LARGE, "The file is too large",
                "Files may have at most " + maxBytes + " bytes (" + maxBytes / (1024 * 1024) + " MiB) on your tier");
    }

    /** The caller's file; anyone else's or an unknown one is "not found". */
    public StoredFile find(long userId, UUID id) {
        StoredFile file = em.find(StoredFile.class, id);
        if (file == null || !file.ownedBy(userId)) {
            throw BusinessException.notFound("File");
        }
        return file;
    }

    /** The caller's files, with the list conventions. */
    public Listing<StoredFile> list(long userId, ListQuery query) {
        return new EntityQuery<>(em, CATALOG).list(query, (cb, q, root) -> cb.equal(root.get("userId"), userId));
    }

    /** The caller's file with its content; the caller closes the stream. */
    public Download content(long userId, UUID id) {
        StoredFile file = find(userId, id);
        var stored = objects.get(file.storagePath()).orElseThrow(() -> {
            LOG.warning(() -> "The object of file " + id + " is missing: " + file.storagePath());
            return BusinessException.notFound("File content");
        });
        return new Download(file, stored);
    }

    /** A file and its stored object. */
    public record Download(StoredFile file, ObjectStore.StoredObject object) {
    }

    /** The text extracted from the caller's ready file; 409 while it is not ready. */
    public String text(long userId, UUID id) {
        StoredFile file = find(userId, id);
        if (file.status() != FileStatus.READY) {
            throw BusinessException.conflict("The file has no text: it is " + file.status().value());
        }
        FileText text = em.find(FileText.class, id);
        return text == null ? "" : text.content();
    }

    /** Removes the caller's file; its object goes once the removal is committed. */
    public void delete(long userId, UUID id) {
        StoredFile file = em.find(StoredFile.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (file == null || !file.ownedBy(userId)) {
            throw BusinessException.notFound("File");
        }
        FileText text = em.find(FileText.class, id);
        if (text != null) {
            em.remove(text);
        }
        em.remove(file);
        String key = file.storagePath();
        transactions.registerInterposedSynchronization(new AfterCompletion(status -> {
            if (status == Status.STATUS_COMMITTED) {
                deleteQuietly(key);
            }
        }));
    }

    /** The parse job takes the file: a new attempt, unless the file is gone or already finished. */
    public Optional<ParseJob> start(UUID id) {
        StoredFile file = em.find(StoredFile.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (file == null || file.status().finished()) {
            return Optional.empty();
        }
        int attempt = file.start();
        return Optional.of(new ParseJob(file.id(), file.storagePath(), file.fileType(), file.filename(), attempt));
    }

    /** The attempt read the file: it is ready with its text and metadata. False when the attempt was superseded. */
    public boolean ready(ParseJob job, FileParser.Extraction extraction) {
        StoredFile file = em.find(StoredFile.class, job.fileId(), LockModeType.PESSIMISTIC_WRITE);
        if (file == null || !file.ready(job.attempt(), extraction.text().length(), extraction.truncated(),
                extraction.metadataJson(), clock.instant())) {
            return false;
        }
        em.persist(new FileText(file.id(), extraction.text()));
        return true;
    }

    /** The file cannot be read: it is failed with the reason. False when the attempt was superseded. */
    public boolean fail(ParseJob job, String reason) {
        StoredFile file = em.find(StoredFile.class, job.fileId(), LockModeType.PESSIMISTIC_WRITE);
        return file != null && file.fail(job.attempt(), reason, clock.instant());
    }

    private void removeUnlessCommitted(String key) {
        transactions.registerInterposedSynchronization(new AfterCompletion(status -> {
            if (status != Status.STATUS_COMMITTED) {
                deleteQuietly(key);
            }
        }));
    }

    private void deleteQuietly(String key) {
        try {
            objects.delete(key);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, e, () -> "Could not remove object " + key + "; it is left behind");
        }
    }

    /** Runs once the transaction has ended, with its outcome. */
    private record AfterCompletion(IntConsumer action) implements Synchronization {
        @Override
        public void beforeCompletion() {
        }

        @Override
        public void afterCompletion(int status) {
            action.accept(status);
        }
    }
}
