package dev.atrium.marketplace.control.checks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import dev.atrium.marketplace.entity.checks.CheckFinding;
import dev.atrium.platform.http.JsonInput;

/**
 * The packages installed in an unpacked image, for the dependency check: Debian's {@code var/lib/dpkg/status}
 * (packages whose status is {@code installed}), Python's {@code *.dist-info/METADATA} and {@code *.egg-info/PKG-INFO}
 * ({@code Name}, {@code Version}), and npm's {@code node_modules/[@scope/]name/package.json}. The tree is walked
 * without following links and each file is read bounded; a file that cannot be read is a low finding, never an error.
 */
final class ImagePackages {

    static final String DPKG_STATUS = "var/lib/dpkg/status";
    private static final int MAX_FILE_BYTES = 16 * 1024 * 1024;
    private static final int MAX_METADATA_BYTES = 1024 * 1024;
    private static final int MAX_FILES = 200_000;

    /** What was found: the packages (as dependencies, to compare with the advisories) and notes. */
    record Found(List<Manifests.Dependency> packages, List<CheckFinding> notes) {
    }

    private ImagePackages() {
    }

    static Found read(Path root) {
        var packages = new ArrayList<Manifests.Dependency>();
        var notes = new ArrayList<CheckFinding>();
        Path status = root.resolve(DPKG_STATUS);
        if (Files.isRegularFile(status, LinkOption.NOFOLLOW_LINKS) && !throughLink(root, status)) {
            read(status, MAX_FILE_BYTES, notes, DPKG_STATUS).ifPresent(text -> dpkg(text, packages));
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                private int seen;

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (++seen > MAX_FILES) {
                        notes.add(CheckFinding.low("", "Installed packages: walk stopped after " + MAX_FILES
                                + " files"));
                        return FileVisitResult.TERMINATE;
                    }
                    if (!attrs.isRegularFile()) {
                        return FileVisitResult.CONTINUE;
                    }
                    String name = root.relativize(file).toString();
                    String parent = file.getParent().getFileName() == null ? ""
                            : file.getParent().getFileName().toString();
                    String base = file.getFileName().toString();
                    if (base.equals("METADATA") && parent.endsWith(".dist-info")
                            || base.equals("PKG-INFO") && parent.endsWith(".egg-info")) {
                        read(file, MAX_METADATA_BYTES, notes, name).ifPresent(t -> python(t, name, packages));
                    } else if (base.equals("package.json") && inNodeModules(root.relativize(file))) {
                        read(file, MAX_METADATA_BYTES, notes, name).ifPresent(t -> npm(t, name, packages, notes));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            notes.add(CheckFinding.low("", "Installed packages: the image could not be walked fully"));
        }
        return new Found(packages, notes);
    }

    private static boolean throughLink(Path root, Path file) {
        for (Path p = file.getParent(); p != null && !p.equals(root); p = p.getParent()) {
            if (Files.isSymbolicLink(p)) {
                return true;
            }
        }
        return false;
    }

    /** {@code node_modules/name/package.json} or {@code node_modules/@scope/name/package.json}. */
    static boolean inNodeModules(Path relative) {
        int n = relative.getNameCount();
        if (n >= 3 && relative.getName(n - 3).toString().equals("node_modules")) {
            return true;
        }
        return n >= 4 && relative.getName(n - 4).toString().equals("node_modules")
                && relative.getName(n - 3).toString().startsWith("@");
    }

    private static Optional<String> read(Path file, int max, List<CheckFinding> notes, String name) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes(max + 1);
            if (bytes.length > max) {
                notes.add(CheckFinding.low(name, "Not checked: larger than " + max + " bytes"));
                return Optional.empty();
            }
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            notes.add(CheckFinding.low(name, "Not checked: cannot be read"));
            return Optional.empty();
        }
    }

    /** dpkg's status file: paragraphs of {@code Field: value}; installed ones only. */
    static void dpkg(String text, List<Manifests.Dependency> out) {
        String pkg = null;
        String version = null;
        boolean installed = false;
        int at = 0;
        int line = 0;
        for (String l : (text + "\n\n").split("\n", -1)) {
            line++;
            if (l.isBlank()) {
                if (pkg != null && version != null && installed) {
                    out.add(new Manifests.Dependency("Debian", pkg, version, DPKG_STATUS, at));
                }
                pkg = null;
                version = null;
                installed = false;
            } else if (l.startsWith("Package:")) {
                pkg = l.substring(8).trim();
                at = line;
            } else if (l.startsWith("Version:")) {
                version = l.substring(8).trim();
            } else if (l.startsWith("Status:")) {
                installed = l.substring(7).trim().endsWith(" installed");
            }
        }
    }

    /** Python's core metadata: the {@code Name} and {@code Version} headers. */
    static void python(String text, String file, List<Manifests.Dependency> out) {
        String name = null;
        String version = null;
        for (String l : text.split("\n")) {
            if (l.isBlank()) {
                break;
            }
            if (l.startsWith("Name:") && name == null) {
                name = l.substring(5).trim();
            } else if (l.startsWith("Version:") && version == null) {
                version = l.substring(8).trim();
            }
        }
        if (name != null && !name.isEmpty() && version != null && !version.isEmpty()) {
            out.add(new Manifests.Dependency("PyPI", Manifests.normalize("PyPI", name), version, file, 0));
        }
    }

    static void npm(String text, String file, List<Manifests.Dependency> out, List<CheckFinding> notes) {
        try {
            if (JsonInput.read(text) instanceof JsonObject o && o.get("name") instanceof JsonString name
                    && o.get("version") instanceof JsonString version) {
                out.add(new Manifests.Dependency("npm", Manifests.normalize("npm", name.getString()),
                        version.getString(), file, 0));
            }
        } catch (RuntimeException e) {
            notes.add(CheckFinding.low(file, "Not checked: not valid JSON"));
        }
    }
}
