package dev.atrium.ai.control.files;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.platform.ServerResources;
import dev.atrium.platform.messaging.MessageHandler;
import dev.atrium.platform.objects.ObjectStore;

/**
 * The parse job: {@link AiConfig#fileParseWorkers} consumers of the {@value FileService#QUEUE} queue per instance.
 * The message is a file id. The worker moves the file to {@code processing} (a new attempt), reads the object and has
 * Apache Tika extract its text (at most {@link AiConfig#fileMaxTextChars}) and metadata on a thread of its own,
 * waiting at most {@link AiConfig#fileParseTimeoutSeconds}, then records {@code ready} or {@code failed} with the
 * reason.
 * <p>
 * A file that cannot be read as its type (corrupt, encrypted, too slow to read) fails at once: another attempt would
 * read the same bytes. Only a failure around it (the object store or the database unreachable) is thrown, so the
 * broker delivers the id again 5 s later; the third delivery records the file as failed instead. A delivery for a
 * file that is gone or finished is skipped, so duplicates are harmless.
 */
@ApplicationScoped
public class FileParseWorker implements MessageHandler {

    static final int LAST_DELIVERY = 3;

    private static final Logger LOG = Logger.getLogger(FileParseWorker.class.getName());

    @EJB
    FileService files;

    @Inject
    ObjectStore objects;

    @Inject
    FileParsers parsers;

    @Inject
    @ConfigProperties
    AiConfig config;

    @Resource(lookup = ServerResources.WORKERS)
    ManagedThreadFactory threads;

    private ExecutorService parsing;

    @PostConstruct
    void init() {
        parsing = Executors.newCachedThreadPool(threads);
    }

    @PreDestroy
    void stop() {
        parsing.shutdownNow();
    }

    @Override
    public String queue() {
        return FileService.QUEUE;
    }

    @Override
    public void onMessage(String body, int deliveryCount) throws Exception {
        UUID id;
        try {
            id = UUID.fromString(body.trim());
        } catch (IllegalArgumentException e) {
            LOG.warning(() -> "Ignoring a message on " + queue() + " that is not a file id");
            return;
        }
        Optional<ParseJob> started = files.start(id);
        if (started.isEmpty()) {
            return;
        }
        ParseJob job = started.get();
        Outcome outcome;
        try {
            outcome = extract(job);
        } catch (InterruptedException e) {
            // the application is stopping: the message comes back after the restart
            Thread.currentThread().interrupt();
            throw e;
        } catch (RuntimeException e) {
            if (deliveryCount < LAST_DELIVERY) {
                LOG.log(Level.WARNING, e, () -> "Parsing file " + id + " failed on delivery " + deliveryCount
                        + "; the broker delivers it again");
                throw e;
            }
            LOG.log(Level.WARNING, e, () -> "Parsing file " + id + " failed on the last delivery");
            outcome = Outcome.failed("The file could not be processed; upload it again later");
        }
        if (outcome.extraction() != null) {
            files.ready(job, outcome.extraction());
        } else {
            files.fail(job, outcome.error());
        }
    }

    /** Either the extraction or the reason the file cannot be read. */
    record Outcome(FileParser.Extraction extraction, String error) {

        static Outcome failed(String error) {
            return new Outcome(null, error);
        }
    }

    Outcome extract(ParseJob job) throws InterruptedException {
        Optional<ObjectStore.StoredObject> stored = objects.get(job.storagePath());
        if (stored.isEmpty()) {
            return Outcome.failed("The stored file is missing");
        }
        InputStream in = stored.get().content();
        try {
            Future<FileParser.Extraction> parse = parsing.submit(() -> parsers.get().parse(in, job.fileType(),
                    job.filename(), config.fileMaxTextChars));
            long timeoutSeconds = config.fileParseTimeoutSeconds;
            try {
                return new Outcome(parse.get(timeoutSeconds, TimeUnit.SECONDS), null);
            } catch (TimeoutException e) {
                // Tika cannot be interrupted; closing the stream (below) ends the read, if not the parse
                parse.cancel(true);
                LOG.warning(() -> "Parsing file " + job.fileId() + " took longer than " + timeoutSeconds
                        + " s; abandoned");
                return Outcome.failed("Reading the file took longer than " + timeoutSeconds + " s");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof FileParser.UnreadableFileException unreadable) {
                    LOG.fine(() -> "File " + job.fileId() + " is unreadable: " + unreadable.getMessage());
                    return Outcome.failed(unreadable.getMessage());
                }
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new IllegalStateException("Parsing file " + job.fileId() + " failed", cause);
            } catch (InterruptedException e) {
                parse.cancel(true);
                throw e;
            }
        } finally {
            try {
                in.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "Closing the stored file failed", e);
            }
        }
    }
}
