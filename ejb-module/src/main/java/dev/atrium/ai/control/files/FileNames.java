package dev.atrium.ai.control.files;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Set;

/**
 * Uploaded file names made safe to keep, to use as the last segment of an object key and to send back in a
 * {@code Content-Disposition}: only the last segment of a path survives (no traversal, whichever separator), control
 * and invisible formatting characters (bidirectional overrides, zero-width characters) are dropped, characters that
 * file systems refuse ({@code < > : " | ? *}) become {@code _}, leading and trailing dots and spaces go, device names
 * of Windows get a {@code _} in front, and the name is cut to {@value #MAX_BYTES} bytes of UTF-8 keeping its
 * extension. What is left of nothing is {@value #FALLBACK}.
 */
public final class FileNames {

    /** Room for the name as one file name on any file system (255 bytes), beside the store's own suffixes. */
    public static final int MAX_BYTES = 200;
    public static final String FALLBACK = "file";
    private static final int MAX_EXTENSION_BYTES = 20;
    private static final String REFUSED = "<>:\"|?*";
    private static final Set<String> DEVICES = Set.of("con", "prn", "aux", "nul", "com1", "com2", "com3", "com4",
            "com5", "com6", "com7", "com8", "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8",
            "lpt9");

    private FileNames() {
    }

    public static String sanitise(String raw) {
        if (raw == null) {
            return FALLBACK;
        }
        String name = Normalizer.normalize(utf8Read(raw), Normalizer.Form.NFC);
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        name = name.substring(slash + 1);
        var kept = new StringBuilder(name.length());
        name.codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE
                    || type == Character.UNASSIGNED || type == Character.PRIVATE_USE
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                return;
            }
            if (REFUSED.indexOf(c) >= 0) {
                kept.append('_');
            } else if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                if (kept.length() > 0 && kept.charAt(kept.length() - 1) != ' ') {
                    kept.append(' ');
                }
            } else {
                kept.appendCodePoint(c);
            }
        });
        name = trim(kept.toString());
        if (name.isEmpty()) {
            return FALLBACK;
        }
        int dot = name.indexOf('.');
        if (DEVICES.contains((dot < 0 ? name : name.substring(0, dot)).toLowerCase(Locale.ROOT))) {
            name = "_" + name;
        }
        return shorten(name);
    }

    /**
     * Multipart headers are often read as ISO-8859-1 while browsers send UTF-8: a name whose characters are all
     * single bytes and that is valid UTF-8 as bytes is read again as UTF-8.
     */
    static String utf8Read(String raw) {
        if (raw.chars().allMatch(c -> c < 0x80) || raw.chars().anyMatch(c -> c > 0xff)) {
            return raw;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException notUtf8) {
            return raw;
        }
    }

    private static String trim(String name) {
        int start = 0;
        int end = name.length();
        while (start < end && (name.charAt(start) == '.' || name.charAt(start) == ' ')) {
            start++;
        }
        while (end > start && (name.charAt(end - 1) == '.' || name.charAt(end - 1) == ' ')) {
            end--;
        }
        return name.substring(start, end);
    }

    private static String shorten(String name) {
        if (bytes(name) <= MAX_BYTES) {
            return name;
        }
        int dot = name.lastIndexOf('.');
        String extension = dot > 0 && bytes(name.substring(dot)) <= MAX_EXTENSION_BYTES
                && name.substring(dot).indexOf(' ') < 0 ? name.substring(dot) : "";
        String base = extension.isEmpty() ? name : name.substring(0, dot);
        int budget = MAX_BYTES - bytes(extension);
        var cut = new StringBuilder();
        int used = 0;
        for (int i = 0; i < base.length(); ) {
            int c = base.codePointAt(i);
            int size = bytes(new String(Character.toChars(c)));
            if (used + size > budget) {
                break;
            }
            cut.appendCodePoint(c);
            used += size;
            i += Character.charCount(c);
        }
        String shortened = trim(cut.toString());
        return (shortened.isEmpty() ? FALLBACK : shortened) + extension;
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * A {@code Content-Disposition} that makes browsers save the file rather than show it: an ASCII
     * {@code filename} for old clients and the exact name as RFC 5987 {@code filename*}.
     */
    public static String attachment(String filename) {
        String name = sanitise(filename);
        var ascii = new StringBuilder();
        name.codePoints().forEach(c -> ascii.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '%'
                ? (char) c : '_'));
        return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''" + percentEncoded(name);
    }

    private static String percentEncoded(String value) {
        var out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "!#$&+-.^_`|~".indexOf(c) >= 0)) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
