package dev.atrium.ai.control.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.Function;

import javax.sql.DataSource;

import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.entity.FileStatus;
import dev.atrium.ai.entity.StoredFile;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.objects.FileObjectStore;
import dev.atrium.platform.objects.ObjectStore;
import dev.atrium.platform.objects.ObjectStoreException;
import dev.atrium.platform.query.ListQuery;
import dev.atrium.platform.time.MovableClock;

/**
 * Files end to end below HTTP: {@link FileService} on the migrated schema (H2 in PostgreSQL mode, or
 * {@code -Datrium.test.postgres-url=…}) with the JPA provider the server uses, a directory object store, and the
 * {@link FileParseWorker} handling deliveries as the broker would make them, each service call its own
 * transaction.
 */
class FilesTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:15:30.123456Z");
    private static final long ADA = 1;
    private static final long BOB = 2;
    private static final long MIB = 1024 * 1024;
    private static final FileParsers PARSERS = new FileParsers();

    private static DataSource dataSource;
    private static EntityManagerFactory factory;

    @TempDir
    Path root;

    private final MovableClock clock = new MovableClock(Clock.fixed(T0, ZoneOffset.UTC));
    private final List<String> sent = new ArrayList<>();
    private ObjectStore objects;
    private FileParseWorker worker;

    @BeforeAll
    static void migrate() throws SQLException {
        var postgres = System.getProperty("atrium.test.postgres-url");
        if (postgres != null) {
            var pg = new PGSimpleDataSource();
            pg.setUrl(postgres);
            dataSource = pg;
        } else {
            var h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:files-" + UUID.randomUUID()
                    + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1");
            dataSource = h2;
        }
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
        try (var c = dataSource.getConnection(); var s = c.createStatement()) {
            s.execute("INSERT INTO users (id, email, username, created_at, updated_at) VALUES "
                    + "(1, 'ada@example.org', 'ada', now(), now()), (2, 'bob@example.org', 'bob', now(), now())");
        }
        factory = Persistence.createEntityManagerFactory("atrium", Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jtaDataSource", "",
                "jakarta.persistence.nonJtaDataSource", dataSource,
                "eclipselink.target-server", "None"));
    }

    @AfterAll
    static void close() {
        factory.close();
    }

    @BeforeEach
    void wire() throws SQLException {
        try (var c = dataSource.getConnection(); var s = c.createStatement()) {
            s.execute("DELETE FROM files");
        }
        objects = new FileObjectStore(root.resolve("objects"));
        worker = worker(objects, 30);
    }

    private FileParseWorker worker(ObjectStore store, long timeoutSeconds) {
        var w = new FileParseWorker();
        w.files = new TransactionalFiles();
        w.objects = store;
        w.parsers = PARSERS;
        w.config = ConfigDefaults.of(AiConfig.class);
        w.config.fileMaxTextChars = 1000;
        w.config.fileParseTimeoutSeconds = timeoutSeconds;
        w.threads = new Threads();
        w.init();
        return w;
    }

    // ---- uploading ----

    @Test
    void whenAFileIsUploadedThenTheObjectTheRecordAndTheParseMessageAreThere() throws IOException {
        byte[] content = "Meeting notes".getBytes(StandardCharsets.UTF_8);

        StoredFile file = upload(ADA, "../../secret/notes.txt", "text/plain", content, MIB);

        assertThat(file.filename()).isEqualTo("notes.txt");
        assertThat(file.storagePath()).isEqualTo(ADA + "/" + file.id() + "/notes.txt");
        assertThat(file.fileType()).isEqualTo("text/plain");
        assertThat(file.fileSize()).isEqualTo(content.length);
        assertThat(file.status()).isEqualTo(FileStatus.UPLOADED);
        assertThat(file.createdAt()).isEqualTo(T0);
        try (InputStream in = objects.get(file.storagePath()).orElseThrow().content()) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        assertThat(sent).containsExactly(FileService.QUEUE + ":" + file.id());
        assertThat(find(ADA, file.id()).status()).isEqualTo(FileStatus.UPLOADED);
    }

    @Test
    void whenTheClientSendsNoUsefulTypeThenItIsDetected() {
        StoredFile pdf = upload(ADA, "scan", "application/octet-stream", Documents.pdf("t", "x"), MIB);
        StoredFile text = upload(ADA, "readme", null, "plain words".getBytes(StandardCharsets.UTF_8), MIB);
        StoredFile declared = upload(ADA, "data.bin", "Application/X-Custom; v=1", new byte[] {1, 2}, MIB);

        assertThat(pdf.fileType()).isEqualTo("application/pdf");
        assertThat(text.fileType()).isEqualTo("text/plain");
        assertThat(declared.fileType()).isEqualTo("application/x-custom; v=1");
    }

    @Test
    void whenTheContentPassesTheLimitThen413AndNothingIsKept() {
        byte[] content = new byte[1001];

        assertThatThrownBy(() -> upload(ADA, "big.bin", "application/pdf", content, 1000))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.PAYLOAD_TOO_LARGE));

        assertThat(objects.list(ADA + "/")).isEmpty();
        assertThat(sent).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM files")).isZero();
        assertThat(upload(ADA, "exact.bin", "application/pdf", new byte[1000], 1000).fileSize()).isEqualTo(1000);
    }

    @Test
    void whenTheTransactionRollsBackAfterTheObjectWasStoredThenTheObjectIsRemoved() {
        var transactions = new FakeTransactions();
        String key = inTransaction(transactions, s -> s.upload(ADA, new FileUpload("x.txt", "text/plain",
                new ByteArrayInputStream(new byte[] {1})), MIB).storagePath());
        assertThat(objects.get(key)).isPresent();

        transactions.complete(Status.STATUS_ROLLEDBACK);

        assertThat(objects.get(key)).isEmpty();
        assertThat(sent).isEmpty();
    }

    @Test
    void whenTheObjectStoreFailsThenTheUploadIsUnavailable() {
        var down = new FailingStore();
        assertThatThrownBy(() -> inTransaction(new FakeTransactions(), s -> {
            s.objects = down;
            return s.upload(ADA, new FileUpload("x.txt", "text/plain", new ByteArrayInputStream(new byte[] {1})),
                    MIB);
        })).isInstanceOfSatisfying(BusinessException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.UNAVAILABLE));
    }

    // ---- reading ----

    @Test
    void whenAnotherUserAsksForAFileThenItIsNotFound() {
        UUID id = upload(ADA, "mine.txt", "text/plain", new byte[] {'a'}, MIB).id();

        for (Function<FileService, Object> call : List.<Function<FileService, Object>>of(
                s -> s.find(BOB, id), s -> s.content(BOB, id), s -> s.text(BOB, id), s -> {
                    s.delete(BOB, id);
                    return null;
                }, s -> s.find(ADA, UUID.randomUUID()))) {
            assertThatThrownBy(() -> inTransaction(new FakeTransactions(), call))
                    .isInstanceOf(BusinessException.class).hasMessage("File not found");
        }
        long bobs = inTransaction(new FakeTransactions(), s -> s.list(BOB, ListQuery.firstPage()).total());
        long adas = inTransaction(new FakeTransactions(), s -> s.list(ADA, ListQuery.firstPage()).total());
        assertThat(bobs).isZero();
        assertThat(adas).isEqualTo(1);
    }

    @Test
    void whenTheFileIsNotReadyThenItsTextIsAConflict() {
        UUID id = upload(ADA, "waiting.txt", "text/plain", new byte[] {'a'}, MIB).id();

        assertThatThrownBy(() -> inTransaction(new FakeTransactions(), s -> s.text(ADA, id)))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.CONFLICT))
                .hasMessageContaining("uploaded");
    }

    @Test
    void whenTheOwnerDownloadsThenTheStoredBytesAndTypeComeBack() throws IOException {
        byte[] pdf = Documents.pdf("t", "x");
        UUID id = upload(ADA, "doc.pdf", null, pdf, MIB).id();

        var download = inTransaction(new FakeTransactions(), s -> s.content(ADA, id));

        try (InputStream in = download.object().content()) {
            assertThat(in.readAllBytes()).isEqualTo(pdf);
        }
        assertThat(download.object().contentType()).isEqualTo("application/pdf");
        assertThat(download.file().filename()).isEqualTo("doc.pdf");
    }

    @Test
    void whenAFileIsDeletedThenTheRecordGoesAndTheObjectOnlyOnceCommitted() {
        StoredFile file = upload(ADA, "old.txt", "text/plain", "bye".getBytes(StandardCharsets.UTF_8), MIB);
        deliver(worker, file.id(), 1);
        var transactions = new FakeTransactions();

        inTransaction(transactions, s -> {
            s.delete(ADA, file.id());
            return null;
        });
        assertThat(objects.get(file.storagePath())).isPresent();
        transactions.complete(Status.STATUS_COMMITTED);

        assertThat(objects.get(file.storagePath())).isEmpty();
        assertThat(count("SELECT COUNT(*) FROM files")).isZero();
        assertThat(count("SELECT COUNT(*) FROM file_texts")).isZero();
    }

    // ---- parsing ----

    @Test
    void whenTheParseJobReadsADocumentThenTheFileIsReadyWithTextAndMetadata() {
        UUID id = upload(ADA, "essay.docx", null, Documents.docx("Ada Lovelace", "Notes on the engine."), MIB).id();

        deliver(worker, id, 1);

        StoredFile file = find(ADA, id);
        assertThat(file.status()).isEqualTo(FileStatus.READY);
        assertThat(file.attempts()).isEqualTo(1);
        assertThat(file.processedAt()).isEqualTo(T0);
        assertThat(file.textLength()).isEqualTo("Notes on the engine.".length());
        assertThat(file.textTruncated()).isFalse();
        assertThat(file.error()).isNull();
        try (var reader = Json.createReader(new StringReader(file.metadata()))) {
            assertThat(reader.readObject().getString("dc:creator")).isEqualTo("Ada Lovelace");
        }
        String text = inTransaction(new FakeTransactions(), s -> s.text(ADA, id));
        assertThat(text).isEqualTo("Notes on the engine.");
    }

    @Test
    void whenTheTextIsLongerThanTheLimitThenItIsCutAndMarked() {
        UUID id = upload(ADA, "long.txt", "text/plain", "word ".repeat(1000).getBytes(StandardCharsets.UTF_8),
                MIB).id();

        deliver(worker, id, 1);

        StoredFile file = find(ADA, id);
        assertThat(file.status()).isEqualTo(FileStatus.READY);
        assertThat(file.textTruncated()).isTrue();
        assertThat(file.textLength()).isLessThanOrEqualTo(1000);
    }

    @Test
    void whenTheFileIsCorruptThenItFailsAtOnceWithTheReasonAndIsNotTriedAgain() {
        UUID id = upload(ADA, "fake.pdf", "application/pdf", "not a pdf".getBytes(StandardCharsets.UTF_8), MIB).id();

        deliver(worker, id, 1);
        deliver(worker, id, 2);

        StoredFile file = find(ADA, id);
        assertThat(file.status()).isEqualTo(FileStatus.FAILED);
        assertThat(file.error()).startsWith("The file could not be read as application/pdf");
        assertThat(file.attempts()).isEqualTo(1);
        assertThat(file.processedAt()).isEqualTo(T0);
    }

    @Test
    void whenTheObjectIsMissingThenTheFileFails() {
        StoredFile file = upload(ADA, "lost.txt", "text/plain", new byte[] {'a'}, MIB);
        objects.delete(file.storagePath());

        deliver(worker, file.id(), 1);

        assertThat(find(ADA, file.id()).error()).isEqualTo("The stored file is missing");
    }

    @Test
    void whenTheObjectStoreIsDownThenTheDeliveryIsRetriedAndTheLastOneFailsTheFile() {
        UUID id = upload(ADA, "later.txt", "text/plain", new byte[] {'a'}, MIB).id();
        var unlucky = worker(new FailingStore(), 30);

        assertThatThrownBy(() -> unlucky.onMessage(id.toString(), 1)).isInstanceOf(ObjectStoreException.class);
        assertThat(find(ADA, id).status()).isEqualTo(FileStatus.PROCESSING);
        assertThatThrownBy(() -> unlucky.onMessage(id.toString(), 2)).isInstanceOf(ObjectStoreException.class);
        deliver(unlucky, id, 3);

        StoredFile file = find(ADA, id);
        assertThat(file.status()).isEqualTo(FileStatus.FAILED);
        assertThat(file.error()).isEqualTo("The file could not be processed; upload it again later");
        assertThat(file.attempts()).isEqualTo(3);
    }

    @Test
    void whenTheStoreRecoversBeforeTheLastDeliveryThenTheFileBecomesReady() {
        UUID id = upload(ADA, "flaky.txt", "text/plain", "recovered".getBytes(StandardCharsets.UTF_8), MIB).id();

        assertThatThrownBy(() -> worker(new FailingStore(), 30).onMessage(id.toString(), 1))
                .isInstanceOf(ObjectStoreException.class);
        deliver(worker, id, 2);

        StoredFile file = find(ADA, id);
        assertThat(file.status()).isEqualTo(FileStatus.READY);
        assertThat(file.attempts()).isEqualTo(2);
    }

    @Test
    void whenReadingTakesLongerThanTheTimeoutThenTheFileFails() {
        StoredFile file = upload(ADA, "slow.txt", "text/plain", new byte[] {'a'}, MIB);
        var slow = worker(new SlowStore(objects), 1);

        deliver(slow, file.id(), 1);

        assertThat(find(ADA, file.id()).error()).isEqualTo("Reading the file took longer than 1 s");
    }

    @Test
    void whenAnAttemptWasSupersededThenItCannotRecordAnOutcome() {
        UUID id = upload(ADA, "twice.txt", "text/plain", new byte[] {'a'}, MIB).id();
        ParseJob first = inTransaction(new FakeTransactions(), s -> s.start(id)).orElseThrow();
        ParseJob second = inTransaction(new FakeTransactions(), s -> s.start(id)).orElseThrow();

        boolean late = inTransaction(new FakeTransactions(), s -> s.fail(first, "late"));
        boolean current = inTransaction(new FakeTransactions(), s -> s.ready(second,
                new FileParser.Extraction("a", false, "{}")));

        assertThat(late).isFalse();
        assertThat(current).isTrue();
        assertThat(find(ADA, id).status()).isEqualTo(FileStatus.READY);
        Optional<ParseJob> again = inTransaction(new FakeTransactions(), s -> s.start(id));
        Optional<ParseJob> unknown = inTransaction(new FakeTransactions(), s -> s.start(UUID.randomUUID()));
        assertThat(again).isEmpty();
        assertThat(unknown).isEmpty();
    }

    @Test
    void whenTheMessageIsNotAFileIdThenItIsIgnored() {
        // a store that fails on every call: the message must be dropped without touching any object or retrying
        var untouched = worker(new FailingStore(), 30);
        assertThatNoException().isThrownBy(() -> untouched.onMessage("not-a-uuid", 1));
        assertThatNoException().isThrownBy(() -> untouched.onMessage("", 3));
    }

    @Test
    void whenFilesAreListedThenTheListConventionsApply() {
        upload(ADA, "b.txt", "text/plain", new byte[] {'b', 'b'}, MIB);
        upload(ADA, "a.pdf", null, Documents.pdf("t", "x"), MIB);
        upload(BOB, "other.txt", "text/plain", new byte[] {'c'}, MIB);

        var texts = inTransaction(new FakeTransactions(), s -> s.list(ADA,
                ListQuery.firstPage().withFilter("file_type", List.of("text/plain"))));

        assertThat(texts.items()).extracting(StoredFile::filename).containsExactly("b.txt");
    }

    // ---- plumbing ----

    /** One delivery of the file's id, as the broker makes it. */
    private static void deliver(FileParseWorker worker, UUID id, int delivery) {
        try {
            worker.onMessage(id.toString(), delivery);
        } catch (Exception e) {
            throw new AssertionError("Delivery " + delivery + " of " + id + " failed", e);
        }
    }

    private StoredFile upload(long user, String name, String type, byte[] content, long max) {
        var transactions = new FakeTransactions();
        StoredFile file = inTransaction(transactions, s -> s.upload(user, new FileUpload(name, type,
                new ByteArrayInputStream(content)), max));
        transactions.complete(Status.STATUS_COMMITTED);
        return file;
    }

    private StoredFile find(long user, UUID id) {
        return inTransaction(new FakeTransactions(), s -> s.find(user, id));
    }

    private long count(String sql) {
        try (var c = dataSource.getConnection(); var s = c.createStatement(); var r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the work in one transaction; rolls back when it throws, as the container does. */
    private <T> T inTransaction(FakeTransactions transactions, Function<FileService, T> work) {
        EntityManager em = factory.createEntityManager();
        try {
            var service = new FileService();
            service.em = em;
            service.clock = clock;
            service.objects = objects;
            service.parsers = PARSERS;
            service.transactions = transactions;
            // the outbox row commits with the transaction: the event exists exactly when it commits
            service.events = event -> transactions.afterCommit(() -> sent.add(event.destination() + ":"
                    + event.payload()));
            em.getTransaction().begin();
            try {
                T result = work.apply(service);
                em.getTransaction().commit();
                return result;
            } catch (RuntimeException e) {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                transactions.complete(Status.STATUS_ROLLEDBACK);
                throw e;
            }
        } finally {
            em.close();
        }
    }

    /** The service as the worker sees it in the container: each call a transaction of its own. */
    private final class TransactionalFiles extends FileService {
        @Override
        public Optional<ParseJob> start(UUID id) {
            return inTransaction(new FakeTransactions(), s -> s.start(id));
        }

        @Override
        public boolean ready(ParseJob job, FileParser.Extraction extraction) {
            return inTransaction(new FakeTransactions(), s -> s.ready(job, extraction));
        }

        @Override
        public boolean fail(ParseJob job, String reason) {
            return inTransaction(new FakeTransactions(), s -> s.fail(job, reason));
        }
    }

    /** Synchronizations run when the test says how the transaction ended. */
    static final class FakeTransactions implements TransactionSynchronizationRegistry {
        private final List<Synchronization> registered = new ArrayList<>();
        private final List<Runnable> afterCommit = new ArrayList<>();

        void afterCommit(Runnable action) {
            afterCommit.add(action);
        }

        void complete(int status) {
            registered.forEach(s -> s.afterCompletion(status));
            if (status == Status.STATUS_COMMITTED) {
                afterCommit.forEach(Runnable::run);
            }
            registered.clear();
            afterCommit.clear();
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            registered.add(sync);
        }

        @Override
        public Object getTransactionKey() {
            return this;
        }

        @Override
        public void putResource(Object key, Object value) {
        }

        @Override
        public Object getResource(Object key) {
            return null;
        }

        @Override
        public int getTransactionStatus() {
            return Status.STATUS_ACTIVE;
        }

        @Override
        public void setRollbackOnly() {
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }

    /** Threads as the container's factory gives them. */
    private static final class Threads implements ManagedThreadFactory {
        @Override
        public Thread newThread(Runnable r) {
            var thread = new Thread(r, "test-parse");
            thread.setDaemon(true);
            return thread;
        }

        @Override
        public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
            throw new UnsupportedOperationException();
        }
    }

    /** An object store that cannot be reached. */
    private static final class FailingStore implements ObjectStore {
        @Override
        public long put(String key, InputStream content, String contentType) {
            throw new ObjectStoreException("Cannot store object " + key + ": connection refused", null);
        }

        @Override
        public Optional<StoredObject> get(String key) {
            throw new ObjectStoreException("Cannot read object " + key + ": connection refused", null);
        }

        @Override
        public boolean delete(String key) {
            throw new ObjectStoreException("Cannot delete object " + key + ": connection refused", null);
        }

        @Override
        public List<String> list(String prefix) {
            return List.of();
        }

        @Override
        public String kind() {
            return "down";
        }

        @Override
        public boolean reachable() {
            return false;
        }
    }

    /** Hands out streams that take their time before the first byte. */
    private record SlowStore(ObjectStore inner) implements ObjectStore {
        @Override
        public long put(String key, InputStream content, String contentType) {
            return inner.put(key, content, contentType);
        }

        @Override
        public Optional<StoredObject> get(String key) {
            return inner.get(key).map(o -> new StoredObject(new InputStream() {
                @Override
                public int read() throws IOException {
                    try {
                        Thread.sleep(5000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted");
                    }
                    return o.content().read();
                }
            }, o.contentType(), o.size()));
        }

        @Override
        public boolean delete(String key) {
            return inner.delete(key);
        }

        @Override
        public List<String> list(String prefix) {
            return inner.list(prefix);
        }

        @Override
        public String kind() {
            return inner.kind();
        }

        @Override
        public boolean reachable() {
            return inner.reachable();
        }
    }
}
