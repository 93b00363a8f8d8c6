package dev.atrium.sandbox;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one rule for the paths of a bundle archive, applied entry by entry in archive order, shared by the check at
 * submission and the unpacker: every entry must stay inside the bundle once unpacked, judged against the tree the
 * earlier entries built rather than one entry at a time. Refused: names without a name, with control characters,
 * absolute or with a {@code ..} segment; any entry whose path passes through an earlier symbolic link (so
 * {@code d/l1 -> ..} followed by {@code d/l1/l2 -> ..} is refused at {@code d/l1/l2}); an entry replacing a link, or a
 * link replacing an earlier entry; a symbolic link whose target, resolved through the links already there, leads
 * outside (and a new link that would make an earlier one lead outside); a hard link to anything but an earlier
 * regular file; devices and FIFOs. Not thread-safe: one instance per archive.
 */
public final class BundlePaths {

    /** What an archive entry is. */
    public enum Kind { FILE, DIRECTORY, SYMLINK, HARDLINK, SPECIAL }

    public static final String OUTSIDE = "A link that leads outside the bundle: ";
    private static final int MAX_HOPS = 40;

    private final Map<String, Kind> entries = new HashMap<>();
    private final Map<String, String> symlinks = new HashMap<>();

    /**
     * Admits one entry, or says why not in words (the entry is then not recorded).
     *
     * @param target the link's target for {@code SYMLINK} and {@code HARDLINK}, else ignored
     */
    public String admit(String name, Kind kind, String target) {
        String problem = unsafeName(name);
        if (problem != null) {
            return problem;
        }
        if (kind == Kind.SPECIAL) {
            return "Device and FIFO entries are not allowed";
        }
        String path = normalize(name);
        if (path.isEmpty()) {
            return kind == Kind.DIRECTORY ? null : "An entry without a name";
        }
        String through = linkOnTheWay(path);
        if (through != null) {
            return "A path through the symbolic link " + through;
        }
        Kind earlier = entries.get(path);
        if (earlier == Kind.SYMLINK) {
            return "An entry replacing the symbolic link " + path;
        }
        if (earlier != null && !(earlier == Kind.DIRECTORY && kind == Kind.DIRECTORY)) {
            // a second entry of a name would overwrite the first, or write through what the first made
            return "A second entry named " + path;
        }
        switch (kind) {
            case SYMLINK -> {
                if (target == null || target.isEmpty()) {
                    return "A link without a target";
                }
                if (target.indexOf('\0') >= 0 || isAbsolute(target)) {
                    return OUTSIDE + target;
                }
                symlinks.put(path, target);
                // a new link can turn an earlier one (or itself) into a way out: judge them all again
                for (var link : symlinks.entrySet()) {
                    if (resolve(link.getKey(), link.getValue()) == null) {
                        symlinks.remove(path);
                        return OUTSIDE + target;
                    }
                }
            }
            case HARDLINK -> {
                if (target == null || target.isEmpty()) {
                    return "A link without a target";
                }
                // a hard link names its target from the archive's root
                if (isAbsolute(target) || escapes(target)) {
                    return OUTSIDE + target;
                }
                String to = normalize(target);
                if (entries.get(to) != Kind.FILE || linkOnTheWay(to) != null) {
                    return "A hard link to something other than an earlier regular file: " + target;
                }
            }
            default -> {
                // files and directories: the name checks above are the whole rule
            }
        }
        recordParents(path);
        entries.put(path, kind == Kind.HARDLINK ? Kind.FILE : kind);
        return null;
    }

    /** Whether the path names an earlier symbolic link. */
    public boolean isSymlink(String name) {
        return symlinks.containsKey(normalize(name));
    }

    private void recordParents(String path) {
        int slash = path.indexOf('/');
        while (slash > 0) {
            entries.putIfAbsent(path.substring(0, slash), Kind.DIRECTORY);
            slash = path.indexOf('/', slash + 1);
        }
    }

    /** The first proper prefix of the path that is a symbolic link, or null. */
    private String linkOnTheWay(String path) {
        int slash = path.indexOf('/');
        while (slash > 0) {
            String prefix = path.substring(0, slash);
            if (symlinks.containsKey(prefix)) {
                return prefix;
            }
            slash = path.indexOf('/', slash + 1);
        }
        return null;
    }

    /**
     * Where the link at {@code path} leads, as segments from the bundle's root, following the links known so far as
     * the kernel would; null when it leads outside (or loops past the hop limit).
     */
    private List<String> resolve(String path, String target) {
        int slash = path.lastIndexOf('/');
        List<String> at = new ArrayList<>(slash < 0 ? List.of() : List.of(path.substring(0, slash).split("/")));
        Deque<String> todo = new ArrayDeque<>(List.of(target.split("/")));
        int hops = 0;
        while (!todo.isEmpty()) {
            String segment = todo.pollFirst();
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (at.isEmpty()) {
                    return null;
                }
                at.remove(at.size() - 1);
                continue;
            }
            at.add(segment);
            String link = symlinks.get(String.join("/", at));
            if (link != null) {
                if (++hops > MAX_HOPS || isAbsolute(link)) {
                    return null;
                }
                at.remove(at.size() - 1);
                String[] parts = link.split("/");
                for (int i = parts.length - 1; i >= 0; i--) {
                    todo.addFirst(parts[i]);
                }
            }
        }
        return at;
    }

    /** The path without {@code ./} segments, repeated or trailing slashes. */
    public static String normalize(String name) {
        StringBuilder out = new StringBuilder();
        for (String segment : name.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (!out.isEmpty()) {
                out.append('/');
            }
            out.append(segment);
        }
        return out.toString();
    }

    /** Why an entry name is unsafe on its own, or null. */
    public static String unsafeName(String name) {
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

    static boolean isAbsolute(String path) {
        String p = path.replace('\\', '/');
        return p.startsWith("/") || p.length() > 1 && p.charAt(1) == ':' && Character.isLetter(p.charAt(0))
                || p.toLowerCase(Locale.ROOT).startsWith("//");
    }

    /** Whether a relative path climbs above the root once {@code .} and {@code ..} are applied lexically. */
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
