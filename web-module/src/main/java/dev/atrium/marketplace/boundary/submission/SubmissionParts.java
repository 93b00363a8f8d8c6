package dev.atrium.marketplace.boundary.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import jakarta.ws.rs.core.EntityPart;

import dev.atrium.marketplace.control.submission.CardValidator;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.http.BodyLimit;

/**
 * The parts of a submission read from the multipart body: the card as text, the bundle copied to a temporary
 * file (never more than the limit, answered 413 beyond it), deleted again on {@link #close()}.
 */
public final class SubmissionParts implements AutoCloseable {

    private String card;
    private Path bundle;

    private SubmissionParts() {
    }

    public static SubmissionParts read(List<EntityPart> parts, long bundleMaxBytes) {
        var read = new SubmissionParts();
        try {
            for (EntityPart part : parts) {
                switch (part.getName()) {
                    case "card" -> {
                        once(read.card, "card");
                        read.card = card(part);
                    }
                    case "bundle" -> {
                        once(read.bundle, "bundle");
                        read.bundle = spool(part, bundleMaxBytes);
                    }
                    default -> throw BusinessException.validation(part.getName()
                            + ": unknown part; send card and bundle");
                }
            }
            if (read.card == null) {
                throw BusinessException.validation("card: the part is required");
            }
            return read;
        } catch (RuntimeException e) {
            read.close();
            throw e;
        }
    }

    public String card() {
        return card;
    }

    /** The bundle on disk, or null when none was sent. */
    public Path bundle() {
        return bundle;
    }

    private static void once(Object previous, String name) {
        if (previous != null) {
            throw BusinessException.validation(name + ": send the part once");
        }
    }

    private static String card(EntityPart part) {
        try (InputStream in = part.getContent()) {
            byte[] bytes = in.readNBytes(CardValidator.CARD_MAX_BYTES + 1);
            if (bytes.length > CardValidator.CARD_MAX_BYTES) {
                throw BusinessException.validation("card: at most " + CardValidator.CARD_MAX_BYTES + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path spool(EntityPart part, long max) {
        Path file;
        try {
            file = Files.createTempFile("atrium-bundle-", ".upload");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (InputStream in = BodyLimit.bound(part.getContent(), max, () -> UploadLimitFilter.tooLarge(max))) {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException | RuntimeException e) {
            delete(file);
            throw e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e);
        }
    }

    @Override
    public void close() {
        if (bundle != null) {
            delete(bundle);
            bundle = null;
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }
}
