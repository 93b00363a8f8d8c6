package dev.atrium.marketplace.control;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * Checks an uploaded agent bundle before it is stored: a {@code .tar.gz} or {@code .zip} (told by its first bytes,
 * not its name) whose every entry stays inside the bundle once unpacked. Refused: absolute names, {@code ..}
 * segments, symbolic or hard links leading outside, device and FIFO entries, more than {@code maxEntries} entries,
 * more than {@code maxUnpackedBytes} once unpacked (counted while reading, not trusted from headers), and archives
 * that cannot be read. Links inside the bundle are allowed.
 */
public final class BundleInspector {

    public static final String TAR_GZ = "tar.gz";
    public static final String ZIP = "zip";

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
                    walk.link(name, entry.getLinkName(), true);
                } else if (entry.isLink()) {
                    walk.link(name, entry.getLinkName(), false);
                } else if (entry.isCharacterDevice() || entry.isBlockDevice() || entry.isFIFO()) {
                    walk.problems.add(SubmissionProblem.bundle(name, "Device and FIFO entries are not allowed"));
                } else if (!entry.isDirectory()) {
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
                if (entry.isUnixSymlink()) {
                    walk.link(name, zip.getUnixSymlink(entry), true);
                } else if (!entry.isDirectory()) {
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
            String problem = unsafeName(name);
            if (problem != null) {
                problems.add(SubmissionProblem.bundle(name, problem));
            }
        }

        void link(String name, String target, boolean symbolic) {
            if (target == null || target.isEmpty()) {
                problems.add(SubmissionProblem.bundle(name, "A link without a target"));
                return;
            }
            // a symbolic link is resolved from its own directory, a hard link from the archive's root
            String base = symbolic && name.contains("/") ? name.substring(0, name.lastIndexOf('/') + 1) : "";
            if (isAbsolute(target) || escapes(base + target)) {
                problems.add(SubmissionProblem.bundle(name, "A link that leads outside the bundle: " + target));
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

    /** Why an entry name is unsafe, or null. */
    static String unsafeName(String name) {
        if (name == null || name.isEmpty()) {
            return "An entry without a name";
        }
        if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "An entry name with control characters";
        }
        if (isAbsolute(name)) {
            return "An absolute path";
        }
        for (String segment : name.replace('\\', '/').split("/")) {
            if (segment.equals("..")) {
                return "A path with '..'";
            }
        }
        return null;
    }

    private static boolean isAbsolute(String path) {
        String p = path.replace('\\', '/');
        return p.startsWith("/") || p.length() > 1 && p.charAt(1) == ':'
                && Character.isLetter(p.charAt(0)) || p.toLowerCase(Locale.ROOT).startsWith("//");
    }

    /** Whether a relative path climbs above the root once {@code .} and {@code ..} are applied. */
    static boolean escapes(String path) {
        int depth = 0;
        for (String segment : path.replace('\\', '/').split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            depth += segment.equals("..") ? -1 : 1;
            if (depth < 0) {
                return true;
            }
        }
        return false;
    }
}
