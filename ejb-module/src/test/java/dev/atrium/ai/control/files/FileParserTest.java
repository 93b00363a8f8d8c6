package dev.atrium.ai.control.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;

class FileParserTest {

    private static final FileParser PARSER = new FileParser();
    private static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

    private static FileParser.Extraction parse(byte[] content, String type, String name)
            throws FileParser.UnreadableFileException {
        return PARSER.parse(new ByteArrayInputStream(content), type, name, 10_000);
    }

    private static JsonObject metadata(FileParser.Extraction extraction) {
        try (var reader = Json.createReader(new StringReader(extraction.metadataJson()))) {
            return reader.readObject();
        }
    }

    @Test
    void whenPlainTextThenItsTextIsExtracted() throws Exception {
        var result = parse("Grüße aus Köln\nZweite Zeile".getBytes(StandardCharsets.UTF_8),
                "text/plain; charset=utf-8", "notes.txt");

        assertThat(result.text()).isEqualTo("Grüße aus Köln\nZweite Zeile");
        assertThat(result.truncated()).isFalse();
        assertThat(metadata(result).getString("Content-Type")).startsWith("text/plain");
    }

    @Test
    void whenPdfThenItsTextAndMetadataAreExtracted() throws Exception {
        var result = parse(Documents.pdf("Quarterly report", "Revenue grew by 12 percent", "Costs stayed flat"),
                "application/pdf", "report.pdf");

        assertThat(result.text()).contains("Revenue grew by 12 percent").contains("Costs stayed flat");
        JsonObject metadata = metadata(result);
        assertThat(metadata.getString("dc:title")).isEqualTo("Quarterly report");
        assertThat(metadata.getString("xmpTPg:NPages")).isEqualTo("1");
        assertThat(metadata.keySet()).noneMatch(k -> k.startsWith("X-TIKA:")).doesNotContain("resourceName");
    }

    @Test
    void whenDocxThenItsParagraphsAndAuthorAreExtracted() throws Exception {
        var result = parse(Documents.docx("Ada Lovelace", "First paragraph.", "Second paragraph."), DOCX,
                "essay.docx");

        assertThat(result.text()).isEqualTo("First paragraph.\nSecond paragraph.");
        assertThat(metadata(result).getString("dc:creator")).isEqualTo("Ada Lovelace");
    }

    @Test
    void whenHtmlThenTheTextIsExtractedWithoutMarkupOrScripts() throws Exception {
        String html = "<html><head><title>Page</title><script>alert('x')</script></head>"
                + "<body><h1>Heading</h1><p>Body <b>text</b>.</p></body></html>";

        var result = parse(html.getBytes(StandardCharsets.UTF_8), "text/html", "page.html");

        assertThat(result.text()).contains("Heading").contains("Body text.").doesNotContain("<", "alert");
        assertThat(metadata(result).getString("dc:title")).isEqualTo("Page");
    }

    @Test
    void whenTheBytesAreNotWhatTheTypeClaimsThenTheFileIsUnreadableWithAReason() {
        byte[] notAPdf = "This is plain text pretending to be a PDF".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> parse(notAPdf, "application/pdf", "fake.pdf"))
                .isInstanceOf(FileParser.UnreadableFileException.class)
                .hasMessageStartingWith("The file could not be read as application/pdf");
        assertThatThrownBy(() -> parse(new byte[] {'P', 'K', 3, 4, 1, 2, 3}, DOCX, "broken.docx"))
                .isInstanceOf(FileParser.UnreadableFileException.class);
    }

    @Test
    void whenTheTextIsLongerThanTheLimitThenItIsCutAndMarkedTruncated() throws Exception {
        byte[] content = "word ".repeat(10_000).getBytes(StandardCharsets.US_ASCII);

        var result = PARSER.parse(new ByteArrayInputStream(content), "text/plain", "long.txt", 1000);

        assertThat(result.truncated()).isTrue();
        assertThat(result.text().length()).isBetween(900, 1000);
    }

    @Test
    void whenTheFileIsEmptyThenThereIsNoTextAndNoFailure() throws Exception {
        var result = parse(new byte[0], "application/pdf", "empty.pdf");

        assertThat(result.text()).isEmpty();
        assertThat(result.truncated()).isFalse();
    }

    @Test
    void whenTheTextHasNulAndControlCharactersThenTheyAreRemoved() {
        assertThat(FileParser.cleanText("a\u0000b\u0007c\td\r\ne \n\n\n\n f\uD800g\u0085"))
                .isEqualTo("abc\td\ne\n\n f\uFFFDg");
    }

    @Test
    void whenReadingTheStoredFileFailsThenItIsAnIoFailureNotAVerdict() {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        };

        assertThatThrownBy(() -> PARSER.parse(broken, "text/plain", "x.txt", 1000))
                .isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void whenNoTypeIsDeclaredThenItIsDetectedFromTheBytesAndTheName() throws IOException {
        assertThat(detect(Documents.pdf("t", "x"), "no-extension")).isEqualTo("application/pdf");
        assertThat(detect(Documents.docx("a", "x"), "essay.docx")).isEqualTo(DOCX);
        assertThat(detect("just some words".getBytes(StandardCharsets.UTF_8), "readme")).isEqualTo("text/plain");
        assertThat(detect(new byte[] {0, 1, 2, (byte) 0xff, 0}, "blob")).isEqualTo("application/octet-stream");
    }

    @Test
    void whenDetectingThenTheStreamIsLeftAtItsStart() throws IOException {
        byte[] pdf = Documents.pdf("t", "x");
        var in = new BufferedInputStream(new ByteArrayInputStream(pdf), 64 * 1024);

        PARSER.detect(in, "x.pdf");

        assertThat(in.readAllBytes()).isEqualTo(pdf);
    }

    @Test
    void whenTheClientDeclaresATypeThenItIsKeptUnlessItSaysNothing() {
        assertThat(FileParser.declaredType("Application/PDF", 255)).contains("application/pdf");
        assertThat(FileParser.declaredType("text/plain; charset=UTF-8", 255)).contains("text/plain; charset=UTF-8");
        assertThat(FileParser.declaredType("text/plain; charset=UTF-8", 12)).contains("text/plain");
        assertThat(FileParser.declaredType("application/octet-stream", 255)).isEmpty();
        assertThat(FileParser.declaredType("not a type", 255)).isEmpty();
        assertThat(FileParser.declaredType(null, 255)).isEmpty();
        assertThat(FileParser.declaredType(" ", 255)).isEmpty();
    }

    private static String detect(byte[] content, String name) {
        return PARSER.detect(new BufferedInputStream(new ByteArrayInputStream(content)), name);
    }
}
