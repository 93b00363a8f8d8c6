package dev.atrium.ai.control.files;

import static dev.atrium.platform.http.JsonProviders.JSON;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;

import org.apache.tika.config.TikaConfig;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.exception.ZeroByteFileException;
import org.apache.tika.io.TikaInputStream;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MediaType;
import org.apache.tika.mime.MimeTypes;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.sax.BodyContentHandler;
import org.xml.sax.SAXException;

/**
 * Apache Tika for uploaded files: what a file is ({@link #detect}, from its first bytes and its name), and its
 * text and metadata ({@link #parse}). Thread-safe; made once, since loading the parsers takes a while.
 * <p>
 * A file is parsed as the type it was recorded with: a file declared {@code application/pdf} that is no PDF fails,
 * rather than being read as whatever it happens to look like. Embedded documents (attachments, archive entries,
 * pictures in a document) are parsed too and their text added. The text is cut at the given number of characters;
 * Tika's own guards stop decompression bombs and absurd nesting.
 */
public final class FileParser {

    public static final String OCTET_STREAM = "application/octet-stream";
    static final int METADATA_NAMES_MAX = 100;
    static final int METADATA_VALUES_MAX = 20;
    static final int METADATA_VALUE_MAX = 1000;

    private final AutoDetectParser parser;
    private final MimeTypes types;

    public FileParser() {
        try {
            // the application's class loader, whatever thread the first use runs on
            var config = new TikaConfig(FileParser.class.getClassLoader());
            parser = new AutoDetectParser(config);
            types = config.getMimeRepository();
        } catch (TikaException | IOException e) {
            throw new IllegalStateException("Cannot load Apache Tika", e);
        }
    }

    /** The text, whether it was cut at the limit, and the metadata as a JSON object. */
    public record Extraction(String text, boolean truncated, String metadataJson) {
    }

    /** The file cannot be read as its type: a final verdict, trying again would not change it. */
    public static final class UnreadableFileException extends Exception {

        public UnreadableFileException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The media type of content from its first bytes (magic numbers) and its name's extension; {@code in} must
     * support mark and reset and is left where it was. Reads at most what the type database's longest magic
     * needs (a few KiB), never the whole file: a container (an Office file is a zip) is told apart by its name.
     */
    public String detect(InputStream in, String filename) {
        if (!in.markSupported()) {
            throw new IllegalArgumentException("Detection needs a stream that supports mark and reset");
        }
        var metadata = new Metadata();
        if (filename != null) {
            metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, filename);
        }
        try {
            return types.detect(in, metadata).toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A client's content type as recorded: the lower-cased type and subtype with their parameters (at most
     * {@code max} characters, else without parameters); empty when it is absent, unreadable or
     * {@code application/octet-stream}, which says nothing, so that the platform detects the type instead.
     */
    public static Optional<String> declaredType(String header, int max) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        MediaType type = MediaType.parse(header.trim());
        if (type == null || type.getBaseType().toString().equals(OCTET_STREAM)) {
            return Optional.empty();
        }
        String full = type.toString();
        if (full.length() <= max) {
            return Optional.of(full);
        }
        String base = type.getBaseType().toString();
        return base.length() <= max ? Optional.of(base) : Optional.empty();
    }

    /**
     * The text and metadata of {@code content}, read as {@code contentType}, the text cut at {@code maxChars}.
     *
     * @throws UnreadableFileException the file is not a valid file of its type (corrupt, encrypted, empty)
     * @throws UncheckedIOException    reading {@code content} itself failed: worth trying again later
     */
    public Extraction parse(InputStream content, String contentType, String filename, int maxChars)
            throws UnreadableFileException {
        var source = new Source(content);
        var metadata = new Metadata();
        if (filename != null) {
            metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, filename);
        }
        if (contentType != null && !contentType.isBlank() && !contentType.startsWith(OCTET_STREAM)) {
            metadata.set(TikaCoreProperties.CONTENT_TYPE_USER_OVERRIDE, contentType);
        }
        var handler = new BodyContentHandler(maxChars);
        var context = new ParseContext();
        context.set(Parser.class, parser);
        boolean truncated = false;
        try (TikaInputStream stream = TikaInputStream.get(source)) {
            parser.parse(stream, handler, metadata, context);
        } catch (Exception | StackOverflowError | LinkageError e) {
            if (source.failure != null) {
                throw new UncheckedIOException("Cannot read the stored file", source.failure);
            }
            if (WriteLimitReachedException.isWriteLimitReached(e)) {
                truncated = true;
            } else if (causedBy(e, ZeroByteFileException.class)) {
                // nothing to read is not an error: an empty file is ready, with no text
                return new Extraction("", false, metadataJson(metadata));
            } else {
                throw new UnreadableFileException(reason(e, contentType), e);
            }
        }
        return new Extraction(cleanText(handler.toString()), truncated, metadataJson(metadata));
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (kind.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static String reason(Throwable e, String contentType) {
        String type = contentType == null || contentType.isBlank() ? "its type" : contentType;
        if (causedBy(e, EncryptedDocumentException.class)) {
            return "The file is encrypted or password-protected";
        }
        if (e instanceof StackOverflowError) {
            return "The file is nested too deeply to read";
        }
        if (e instanceof LinkageError) {
            return "Files of type " + type + " cannot be read by this installation";
        }
        String detail = e instanceof TikaException || e instanceof SAXException || e instanceof IOException
                ? innermostMessage(e) : e.getClass().getSimpleName();
        return "The file could not be read as " + type + (detail == null ? "" : ": " + detail);
    }

    private static String innermostMessage(Throwable e) {
        String message = null;
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                message = c.getMessage();
            }
        }
        if (message == null) {
            return null;
        }
        message = cleanText(message).replaceAll("\\s+", " ");
        return message.length() > 300 ? message.substring(0, 299) + "…" : message;
    }

    /**
     * Text fit for both databases and for JSON: no NUL or other control characters besides tab and line breaks
     * (PostgreSQL refuses NUL in text), no unpaired surrogates, at most one empty line in a row, trimmed.
     */
    static String cleanText(String text) {
        var out = new StringBuilder(text.length());
        int newlines = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
                newlines = 0;
                continue;
            }
            if (Character.isSurrogate(c)) {
                out.append('\uFFFD');
                newlines = 0;
                continue;
            }
            if (c == '\r') {
                continue;
            }
            if (c == '\n') {
                // trailing blanks of a line go
                while (out.length() > 0 && (out.charAt(out.length() - 1) == ' ' || out.charAt(out.length() - 1) == '\t')) {
                    out.setLength(out.length() - 1);
                }
                if (++newlines <= 2) {
                    out.append('\n');
                }
                continue;
            }
            if (c != '\t' && (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\uFEFF')) {
                continue;
            }
            out.append(c);
            if (c != ' ' && c != '\t') {
                newlines = 0;
            }
        }
        return out.toString().strip();
    }

    /**
     * The document's metadata as a JSON object, name to value (or array of values): at most
     * {@value #METADATA_NAMES_MAX} names, {@value #METADATA_VALUES_MAX} values each of at most
     * {@value #METADATA_VALUE_MAX} characters; Tika's bookkeeping ({@code X-TIKA:*}) and what the platform gave the
     * parser itself (name, type override) are left out.
     */
    static String metadataJson(Metadata metadata) {
        Map<String, List<String>> kept = new TreeMap<>();
        String[] names = metadata.names();
        Arrays.sort(names);
        for (String name : names) {
            if (kept.size() >= METADATA_NAMES_MAX) {
                break;
            }
            if (name.startsWith("X-TIKA:") || name.equals(TikaCoreProperties.RESOURCE_NAME_KEY)
                    || name.equals(TikaCoreProperties.CONTENT_TYPE_USER_OVERRIDE.getName())
                    || name.equals("X-Parsed-By")) {
                continue;
            }
            var values = new ArrayList<String>();
            for (String value : metadata.getValues(name)) {
                if (values.size() >= METADATA_VALUES_MAX || value == null) {
                    break;
                }
                String clean = cleanText(value);
                values.add(clean.length() > METADATA_VALUE_MAX ? clean.substring(0, METADATA_VALUE_MAX - 1) + "…"
                        : clean);
            }
            if (!values.isEmpty()) {
                kept.put(cleanText(name), values);
            }
        }
        JsonObjectBuilder json = JSON.createObjectBuilder();
        kept.forEach((name, values) -> {
            if (values.size() == 1) {
                json.add(name, values.get(0));
            } else {
                JsonArrayBuilder array = JSON.createArrayBuilder();
                values.forEach(array::add);
                json.add(name, array);
            }
        });
        return json.build().toString();
    }

    /** The stored file's stream, remembering whether reading it failed (as opposed to the parser failing). */
    private static final class Source extends FilterInputStream {
        private IOException failure;

        Source(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return super.skip(n);
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }
}
