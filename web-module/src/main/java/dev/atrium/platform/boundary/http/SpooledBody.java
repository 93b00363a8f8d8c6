package dev.atrium.platform.boundary.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A request body read once, to know its SHA-256, and then handed on to be read again: up to
 * {@value #IN_MEMORY} bytes in memory, a larger one (an upload) in a temporary file, so that no body is ever held
 * whole in memory. {@link #close()} deletes the file.
 */
final class SpooledBody implements AutoCloseable {

    static final int IN_MEMORY = 256 * 1024;
    private static final Logger LOG = Logger.getLogger(SpooledBody.class.getName());

    private final byte[] bytes;
    private final Path file;
    private final String sha256;
    private InputStream opened;

    private SpooledBody(byte[] bytes, Path file, String sha256) {
        this.bytes = bytes;
        this.file = file;
        this.sha256 = sha256;
    }

    static SpooledBody empty() {
        return new SpooledBody(new byte[0], null, hex(digest().digest()));
    }

    /** Reads {@code in} to its end; whatever the stream throws (a size limit, say) passes through. */
    static SpooledBody read(InputStream in) throws IOException {
        MessageDigest sha = digest();
        var memory = new ByteArrayOutputStream();
        OutputStream out = memory;
        Path file = null;
        byte[] buffer = new byte[64 * 1024];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                sha.update(buffer, 0, n);
                if (file == null && memory.size() + n > IN_MEMORY) {
                    file = Files.createTempFile("atrium-body-", ".tmp");
                    out = Files.newOutputStream(file);
                    memory.writeTo(out);
                    memory = null;
                }
                out.write(buffer, 0, n);
            }
            out.close();
        } catch (IOException | RuntimeException e) {
            out.close();
            if (file != null) {
                Files.deleteIfExists(file);
            }
            throw e;
        }
        return new SpooledBody(file == null ? memory.toByteArray() : null, file, hex(sha.digest()));
    }

    String sha256() {
        return sha256;
    }

    boolean inMemory() {
        return file == null;
    }

    /** The body again, from its start. */
    InputStream stream() throws IOException {
        if (file == null) {
            return new ByteArrayInputStream(bytes);
        }
        opened = Files.newInputStream(file);
        return opened;
    }

    @Override
    public void close() {
        if (file == null) {
            return;
        }
        try {
            if (opened != null) {
                opened.close();
            }
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.log(Level.WARNING, e, () -> "Could not delete the spooled request body " + file);
        }
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }
}
