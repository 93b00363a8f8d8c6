package dev.atrium.marketplace.control.submission;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

import dev.atrium.sandbox.BundlePaths;
import dev.atrium.sandbox.ImageArchive;

/**
 * Checks an uploaded agent bundle before it is stored: a {@code .tar.gz} or {@code .zip} (told by its first bytes,
 * not its name) whose every entry stays inside the bundle once unpacked. Refused: absolute names, {@code ..}
 * segments, symbolic or hard links leading outside, device and FIFO entries, more than {@code maxEntries} entries,
 * more than {@code maxUnpackedBytes} once unpacked (counted while reading, not trusted from headers), and archives
 * that cannot be read. Links inside the bundle are allowed. The path rule is the sandbox's {@link BundlePaths}, the
 * same one its unpacker applies: links are judged against the tree the earlier entries built, so a chain such as
 * {@code d/l1 -> ..} then {@code d/l1/l2 -> ..} is refused here at submission, not only at unpacking.
 */
public final class BundleInspector {

    public static final String TAR_GZ = "tar.gz";
    public static final String ZIP = "zip";
    /** An image archive (docker save, OCI archive): checked when it is unpacked, by {@link ImageArchive}. */
    public static final String IMAGE = "oci";

    /** The outcome: the format, and the problems (none for an acceptable bundle). */
    public record Inspection(String format, int entries, long unpackedBytes, List<SubmissionProblem> problems) {

        public boolean acceptable() {
            return problems.isEmpty();
        }
    }

    private final int maxEntries;
    private final long maxUnpackedBytes;

    public BundleInspector(int maxEntries, long maxUnpackedBytes) {
        this.maxEntries = maxEntries;
        this.maxUnpackedBytes = maxUnpackedBytes;
    }

    public Inspection inspect(Path file) {
        if (ImageArchive.isImage(file)) {
            return new Inspection(IMAGE, 0, 0, List.of());
        }
        String format;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(4);
            format = head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b ? TAR_GZ
                    : head.length == 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4 ? ZIP
                    : null;
        } catch (IOException e) {
            return failed(null, "The bundle cannot be read");
        }
        if (format == null) {
            return failed(null, "The bundle must be a .tar.gz or .zip archive");
        }
        var walk = new Walk(format);
        try {
            if (format.equals(TAR_GZ)) {
                tar(file, walk);
            } else {
                zip(file, walk);
            }
        } catch (LimitReached e) {
            // reported by the walk already
        } catch (IOException | RuntimeException e) {
            walk.problems.add(SubmissionProblem.bundle("", "The archive is damaged or not a " + format + " archive"));
        }
        if (walk.entries == 0 && walk.problems.isEmpty()) {
            walk.problems.add(SubmissionProblem.bundle("", "The bundle is empty"));
        }
        return new Inspection(format, walk.entries, walk.unpacked, List.copyOf(walk.problems));
    }

    private static Inspection failed(String format, String message) {
        return new Inspection(format, 0, 0, List.of(SubmissionProblem.bundle("", message)));
    }

    private void tar(Path file, Walk walk) throws IOException {
        try (var tar = new TarArchiveInputStream(new GZIPInputStream(new BufferedInputStream(Files.newInputStream(file))))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                String name = entry.getName();
                walk.entry(name);
                if (entry.isSymbolicLink()) {
                    walk.admit(name, BundlePaths.Kind.SYMLINK, entry.getLinkName());
                } else if (entry.isLink()) {
                    walk.admit(name, BundlePaths.Kind.HARDLINK, entry.getLinkName());
                } else if (entry.isCharacterDevice() || entry.isBlockDevice() || entry.isFIFO()) {
                    walk.admit(name, BundlePaths.Kind.SPECIAL, null);
                } else if (entry.isDirectory()) {
                    walk.admit(name, BundlePaths.Kind.DIRECTORY, null);
                } else {
                    walk.admit(name, BundlePaths.Kind.FILE, null);
                    walk.count(tar);
                }
            }
        }
    }

    private void zip(Path file, Walk walk) throws IOException {
        try (var zip = ZipFile.builder().setPath(file).get()) {
            var entries = zip.getEntries();
            while (entries.hasMoreElements()) {
                ZipArchiveEntry entry = entries.nextElement();
                String name = entry.getName();
                walk.entry(name);
                int type = entry.getUnixMode() & 0170000;
                if (entry.isUnixSymlink()) {
                    walk.admit(name, BundlePaths.Kind.SYMLINK, zip.getUnixSymlink(entry));
                } else if (entry.isDirectory()) {
                    walk.admit(name, BundlePaths.Kind.DIRECTORY, null);
                } else if (type != 0 && type != 0100000) {
                    walk.admit(name, BundlePaths.Kind.SPECIAL, null);
                } else {
                    walk.admit(name, BundlePaths.Kind.FILE, null);
                    try (InputStream in = zip.getInputStream(entry)) {
                        walk.count(in);
                    }
                }
            }
        }
    }

    /** Thrown to stop reading once a limit is passed. */
    private static final class LimitReached extends RuntimeException {
        LimitReached() {
            super(null, null, false, false);
        }
    }

    private final class Walk {
        final String format;
        final List<SubmissionProblem> problems = new ArrayList<>();
        final BundlePaths paths = new BundlePaths();
        int entries;
        long unpacked;

        Walk(String format) {
            this.format = format;
        }

        void entry(String name) {
            if (++entries > maxEntries) {
                problems.add(SubmissionProblem.bundle("", "More than " + maxEntries + " entries"));
                throw new LimitReached();
            }
        }

        /** One rule with the unpacker: each entry is judged against the tree the earlier ones built. */
        void admit(String name, BundlePaths.Kind kind, String target) {
            String problem = paths.admit(name, kind, target);
            if (problem != null) {
                problems.add(SubmissionProblem.bundle(name, problem));
            }
        }

        void count(InputStream in) throws IOException {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                unpacked += n;
                if (unpacked > maxUnpackedBytes) {
                    problems.add(SubmissionProblem.bundle("", "More than " + maxUnpackedBytes
                            + " bytes once unpacked"));
                    throw new LimitReached();
                }
            }
        }
    }
}
