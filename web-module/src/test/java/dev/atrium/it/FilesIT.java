package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Spec 02's files over HTTP on the real server: multipart upload with the permission and the tier's size limit,
 * the parse job on the {@code file-parse} queue turning the file ready (text, metadata) or failed, download of the
 * same bytes, ownership, sanitised names and deletion. Users get {@code pro_user} (which has {@code file:upload})
 * from an administrator, as an operator would grant it; their tier stays free (10 MiB, as for every tier).
 */
@ExtendWith(AtriumServer.class)
class FilesIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final long LIMIT = 10L * 1024 * 1024;
    private static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

    private static Accounts.Account staff;

    @BeforeAll
    static void staff() {
        // a reviewer of its own, so the many grants here do not use up the shared administrator's rate limit
        staff = granted(Accounts.admin(), Accounts.verified("files-staff"), "admin");
    }

    private static Accounts.Account uploader(String prefix) {
        return granted(staff, Accounts.verified(prefix), "pro_user");
    }

    private static Accounts.Account granted(Accounts.Account by, Accounts.Account account, String role) {
        var granted = by.api().post("/admin/users/" + account.id() + "/roles", Map.of("role", role));
        assertThat(granted.status()).as(granted.toString()).isIn(200, 201);
        return account;
    }

    @Test
    void whenATextFileIsUploadedThenItIsAcceptedAtOnceAndBecomesReadyWithItsText() {
        var user = uploader("files-text");
        String text = "Meeting notes\nGrüße an das Team: ship on Friday.";

        var reply = upload(user.api(), "notes.txt", "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        String id = reply.json().get("file_id").asText();
        assertThat(UUID.fromString(id)).isNotNull();
        assertThat(reply.json().get("status").asText()).isEqualTo("processing");
        assertThat(reply.json().get("id").asText()).isEqualTo(id);
        assertThat(reply.json().get("href").asText()).isEqualTo("/api/files/" + id);
        assertThat(reply.header("Location")).isEqualTo("/api/files/" + id);

        JsonNode file = awaitFinished(user.api(), id);

        assertThat(file.get("status").asText()).as(file.toString()).isEqualTo("ready");
        assertThat(file.get("filename").asText()).isEqualTo("notes.txt");
        assertThat(file.get("file_type").asText()).isEqualTo("text/plain; charset=utf-8");
        assertThat(file.get("file_size").asLong()).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        assertThat(file.get("storage_path").asText()).isEqualTo(user.id() + "/" + id + "/notes.txt");
        assertThat(file.get("metadata").get("Content-Type").asText()).startsWith("text/plain");
        assertThat(file.get("error").isNull()).isTrue();
        assertThat(file.get("text_length").asInt()).isEqualTo(text.length());
        assertThat(file.at("/_links/text").asText()).isEqualTo("/api/files/" + id + "/text");

        var extracted = user.api().get("/api/files/" + id + "/text");
        assertThat(extracted.status()).as(extracted.toString()).isEqualTo(200);
        assertThat(extracted.json().get("text").asText()).isEqualTo(text);
        assertThat(extracted.json().get("truncated").asBoolean()).isFalse();

        var list = user.api().get("/api/files");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().get("total").asInt()).isEqualTo(1);
        assertThat(list.json().at("/items/0/id").asText()).isEqualTo(id);
        assertThat(list.json().at("/items/0/status").asText()).isEqualTo("ready");
    }

    @Test
    void whenADocxIsUploadedAsOctetStreamThenItsTypeIsDetectedAndItsTextAndAuthorExtracted() {
        var user = uploader("files-docx");

        var reply = upload(user.api(), "essay.docx", "application/octet-stream",
                docx("Ada Lovelace", "Notes on the analytical engine.", "It weaves algebraic patterns."));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        JsonNode file = awaitFinished(user.api(), reply.json().get("file_id").asText());
        assertThat(file.get("status").asText()).as(file.toString()).isEqualTo("ready");
        assertThat(file.get("file_type").asText()).isEqualTo(DOCX);
        assertThat(file.at("/metadata/dc:creator").asText()).isEqualTo("Ada Lovelace");
        var text = user.api().get("/api/files/" + file.get("id").asText() + "/text").json().get("text").asText();
        assertThat(text).isEqualTo("Notes on the analytical engine.\nIt weaves algebraic patterns.");
    }

    @Test
    void whenAPdfIsUploadedThenItIsReadAndTheDownloadGivesBackTheSameBytes() {
        var user = uploader("files-pdf");
        byte[] pdf = pdf("Quarterly report", "Revenue grew by 12 percent");

        String id = upload(user.api(), "Quarterly report.pdf", null, pdf).json().get("file_id").asText();
        JsonNode file = awaitFinished(user.api(), id);

        assertThat(file.get("status").asText()).as(file.toString()).isEqualTo("ready");
        assertThat(file.get("file_type").asText()).isEqualTo("application/pdf");
        assertThat(file.at("/metadata/dc:title").asText()).isEqualTo("Quarterly report");
        assertThat(file.at("/metadata/xmpTPg:NPages").asText()).isEqualTo("1");
        assertThat(user.api().get("/api/files/" + id + "/text").json().get("text").asText())
                .contains("Revenue grew by 12 percent");

        var download = download(user.accessToken(), "/api/files/" + id + "/content");
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(download.body()).isEqualTo(pdf);
        assertThat(download.headers().firstValue("Content-Type")).contains("application/pdf");
        assertThat(download.headers().firstValue("Content-Disposition")).contains(
                "attachment; filename=\"Quarterly report.pdf\"; filename*=UTF-8''Quarterly%20report.pdf");
        assertThat(download.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(download.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                csp -> assertThat(csp).contains("sandbox"));
    }

    @Test
    void whenTheBytesOnlyClaimToBeAPdfThenTheFileFailsWithTheReasonAndHasNoText() {
        var user = uploader("files-corrupt");

        String id = upload(user.api(), "broken.pdf", "application/pdf",
                "%PDF-1.7 this is not really a PDF at all".getBytes(StandardCharsets.US_ASCII))
                .json().get("file_id").asText();
        JsonNode file = awaitFinished(user.api(), id);

        assertThat(file.get("status").asText()).as(file.toString()).isEqualTo("failed");
        assertThat(file.get("error").asText()).startsWith("The file could not be read as application/pdf");
        assertThat(file.get("processed_at").isNull()).isFalse();
        var text = user.api().get("/api/files/" + id + "/text");
        assertThat(text.status()).as(text.toString()).isEqualTo(409);
        assertThat(text.code()).isEqualTo(40900);
        // the bytes are still the user's to download or delete
        assertThat(download(user.accessToken(), "/api/files/" + id + "/content").statusCode()).isEqualTo(200);
    }

    @Test
    void whenTheFileIsLargerThanTheTierAllowsThen413WhileStreamingAndNothingIsKept() throws Exception {
        var user = uploader("files-large");
        byte[] tooLarge = new byte[(int) LIMIT + 1];
        new Random(7).nextBytes(tooLarge);

        var justOver = upload(user.api(), "big.bin", "application/octet-stream", tooLarge);
        assertThat(justOver.status()).as(justOver.toString()).isEqualTo(413);
        assertThat(justOver.code()).isEqualTo(41300);
        assertThat(justOver.json().at("/error/details").asText()).contains("10 MiB");

        // no Content-Length: the body is cut off as soon as it passes the limit
        var chunked = uploadChunked(user.accessToken(), "endless.bin", 3 * LIMIT);
        assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(413);
        assertThat(chunked.body()).contains("41300");

        assertThat(user.api().get("/api/files").json().get("total").asInt()).isZero();

        var exactly = upload(user.api(), "exact.bin", "application/octet-stream", new byte[(int) LIMIT]);
        assertThat(exactly.status()).as(exactly.toString()).isEqualTo(202);
        JsonNode file = awaitFinished(user.api(), exactly.json().get("file_id").asText());
        assertThat(file.get("file_size").asLong()).isEqualTo(LIMIT);
        assertThat(file.get("status").asText()).isEqualTo("ready");
    }

    @Test
    void whenAnUploadIsRepeatedWithTheSameIdempotencyKeyThenTheFirstAnswerIsReplayed() {
        var user = uploader("files-retry");
        byte[] content = new byte[1024 * 1024];
        new Random(3).nextBytes(content);
        Api keyed = user.api().header("Idempotency-Key", "upload-" + UUID.randomUUID());

        String boundary = "----atrium" + UUID.randomUUID().toString().replace("-", "");
        byte[] body = multipart(boundary, "retry.bin", "application/octet-stream", content);

        var first = keyed.send("POST", "/api/files/upload", body, "multipart/form-data; boundary=" + boundary);
        var second = keyed.send("POST", "/api/files/upload", body, "multipart/form-data; boundary=" + boundary);

        assertThat(first.status()).as(first.toString()).isEqualTo(202);
        assertThat(second.status()).as(second.toString()).isEqualTo(202);
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(second.json().get("file_id").asText()).isEqualTo(first.json().get("file_id").asText());
        assertThat(user.api().get("/api/files").json().get("total").asInt()).isEqualTo(1);
        assertThat(download(user.accessToken(), "/api/files/" + first.json().get("file_id").asText() + "/content")
                .body()).isEqualTo(content);
    }

    @Test
    void whenTheCallerLacksFileUploadThen403AndAnonymousThen401() {
        var plain = Accounts.verified("files-plain");

        var refused = upload(plain.api(), "a.txt", "text/plain", new byte[] {'a'});
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.json().at("/error/message").asText()).contains("file:upload");
        assertThat(upload(Api.anonymous(), "a.txt", "text/plain", new byte[] {'a'}).status()).isEqualTo(401);
        // reading one's own files needs no permission, only a caller
        assertThat(plain.api().get("/api/files").status()).isEqualTo(200);
        assertThat(Api.anonymous().get("/api/files").status()).isEqualTo(401);
    }

    @Test
    void whenTheFilenameTriesToLeaveItsDirectoryThenOnlyASafeNameIsKept() {
        var user = uploader("files-names");

        var traversal = upload(user.api(), "../../../etc/passwd", "text/plain", "root:x:0:0".getBytes());
        var windows = upload(user.api(), "..\\..\\boot.ini", "text/plain", "x".getBytes());
        var sneaky = upload(user.api(), "invoice\u202Efdp.exe", "text/plain", "x".getBytes());
        var international = upload(user.api(), "Grüße aus Köln.txt", "text/plain", "x".getBytes());

        String id = traversal.json().get("file_id").asText();
        JsonNode file = user.api().get("/api/files/" + id).json();
        assertThat(file.get("filename").asText()).isEqualTo("passwd");
        assertThat(file.get("storage_path").asText()).isEqualTo(user.id() + "/" + id + "/passwd");
        assertThat(user.api().get("/api/files/" + windows.json().get("file_id").asText()).json()
                .get("filename").asText()).isEqualTo("boot.ini");
        assertThat(user.api().get("/api/files/" + sneaky.json().get("file_id").asText()).json()
                .get("filename").asText()).isEqualTo("invoicefdp.exe");
        // browsers send names as raw UTF-8 in the part's headers
        assertThat(user.api().get("/api/files/" + international.json().get("file_id").asText()).json()
                .get("filename").asText()).isEqualTo("Grüße aus Köln.txt");
    }

    @Test
    void whenAnotherUserAsksForAFileThenItIsNotFound() {
        var owner = uploader("files-owner");
        var other = uploader("files-other");
        String id = upload(owner.api(), "private.txt", "text/plain", "mine".getBytes()).json().get("file_id")
                .asText();
        awaitFinished(owner.api(), id);

        for (String path : new String[] {"", "/content", "/text"}) {
            var reply = other.api().get("/api/files/" + id + path);
            assertThat(reply.status()).as(path + " " + reply).isEqualTo(404);
            assertThat(reply.code()).isEqualTo(40400);
        }
        assertThat(other.api().delete("/api/files/" + id).status()).isEqualTo(404);
        assertThat(other.api().get("/api/files").json().get("total").asInt()).isZero();
        assertThat(owner.api().get("/api/files/not-a-uuid").status()).isEqualTo(404);
        assertThat(owner.api().get("/api/files/" + UUID.randomUUID()).status()).isEqualTo(404);
        assertThat(owner.api().get("/api/files/" + id).status()).isEqualTo(200);
    }

    @Test
    void whenAFileIsDeletedThenItsRecordTextAndContentAreGone() {
        var user = uploader("files-delete");
        String id = upload(user.api(), "old.txt", "text/plain", "bye".getBytes()).json().get("file_id").asText();
        awaitFinished(user.api(), id);

        var deleted = user.api().delete("/api/files/" + id);

        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        assertThat(user.api().get("/api/files/" + id).status()).isEqualTo(404);
        assertThat(user.api().get("/api/files/" + id + "/content").status()).isEqualTo(404);
        assertThat(user.api().delete("/api/files/" + id).status()).isEqualTo(404);
        assertThat(user.api().get("/api/files").json().get("total").asInt()).isZero();
    }

    @Test
    void whenTheUserIsDeletedThenTheirStoredFilesAreRemovedFromTheObjectStore() throws Exception {
        var user = uploader("files-gone");
        String id = upload(user.api(), "mine.txt", "text/plain", "private".getBytes()).json().get("file_id").asText();
        awaitFinished(user.api(), id);
        Path prefix = AtriumServer.get().dataDir().resolve("objects").resolve(Long.toString(user.id()));
        assertThat(regularFiles(prefix)).isNotEmpty();

        var deleted = staff.api().delete("/admin/users/" + user.id());

        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        for (int i = 0; i < 50 && !regularFiles(prefix).isEmpty(); i++) {
            Accounts.sleep(100);
        }
        assertThat(regularFiles(prefix)).isEmpty();
    }

    private static List<Path> regularFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void whenTheBodyIsNotAMultipartUploadWithAFilePartThenItIsRefused() {
        var user = uploader("files-malformed");

        var json = user.api().post("/api/files/upload", Map.of("file", "x"));
        assertThat(json.status()).as(json.toString()).isEqualTo(415);
        assertThat(json.code()).isEqualTo(41500);

        var noFile = user.api().send("POST", "/api/files/upload", "--b\r\nContent-Disposition: form-data; "
                + "name=\"other\"\r\n\r\nxyz\r\n--b--\r\n", "multipart/form-data; boundary=b");
        assertThat(noFile.status()).as(noFile.toString()).isEqualTo(422);
        assertThat(noFile.json().at("/error/details").asText()).contains("file");
    }

    // ---- helpers ----

    /** POST /api/files/upload as multipart/form-data with the part {@code file}; no Content-Type when null. */
    static Reply upload(Api api, String filename, String contentType, byte[] content) {
        String boundary = "----atrium" + UUID.randomUUID().toString().replace("-", "");
        return api.send("POST", "/api/files/upload", multipart(boundary, filename, contentType, content),
                "multipart/form-data; boundary=" + boundary);
    }

    static byte[] multipart(String boundary, String filename, String contentType, byte[] content) {
        var body = new ByteArrayOutputStream();
        String headers = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + filename.replace("\"", "%22") + "\"\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n") + "\r\n";
        body.writeBytes(headers.getBytes(StandardCharsets.UTF_8));
        body.writeBytes(content);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return body.toByteArray();
    }

    /** An upload whose length is not declared (chunked transfer), of {@code size} bytes of file content. */
    private static HttpResponse<String> uploadChunked(String token, String filename, long size) throws Exception {
        String boundary = "----atrium" + UUID.randomUUID().toString().replace("-", "");
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        var request = HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + "/api/files/upload"))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(
                        java.util.Collections.enumeration(java.util.List.of(new ByteArrayInputStream(head),
                                new Zeros(size), new ByteArrayInputStream(tail))))))
                .build();
        return client().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<byte[]> download(String token, String path) {
        var request = HttpRequest.newBuilder(URI.create(AtriumServer.get().baseUrl() + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + token).GET().build();
        try {
            return client().send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Polls the file until it is ready or failed. */
    static JsonNode awaitFinished(Api api, String id) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            var reply = api.get("/api/files/" + id);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            last = reply.json();
            String status = last.get("status").asText();
            if (status.equals("ready") || status.equals("failed")) {
                return last;
            }
            assertThat(status).isIn("uploaded", "processing");
            Accounts.sleep(250);
        }
        throw new AssertionError("File " + id + " did not finish within " + PATIENCE + "; last seen " + last);
    }

    static byte[] pdf(String title, String line) {
        try (var document = new PDDocument(); var out = new ByteArrayOutputStream()) {
            var page = new PDPage();
            document.addPage(page);
            try (var content = new PDPageContentStream(document, page)) {
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(50, 700);
                content.showText(line);
                content.endText();
            }
            document.getDocumentInformation().setTitle(title);
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] docx(String author, String... paragraphs) {
        try (var document = new XWPFDocument(); var out = new ByteArrayOutputStream()) {
            for (String paragraph : paragraphs) {
                document.createParagraph().createRun().setText(paragraph);
            }
            document.getProperties().getCoreProperties().setCreator(author);
            document.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code size} zero bytes, made as read. */
    private static final class Zeros extends InputStream {
        private long left;

        Zeros(long size) {
            this.left = size;
        }

        @Override
        public int read() {
            if (left <= 0) {
                return -1;
            }
            left--;
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            java.util.Arrays.fill(b, off, off + n, (byte) 0);
            left -= n;
            return n;
        }
    }
}
