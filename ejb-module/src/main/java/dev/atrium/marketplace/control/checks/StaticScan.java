package dev.atrium.marketplace.control.checks;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.checks.CheckFinding;

/**
 * Check 2, the static scan of an unpacked bundle. Code files (Python, shell and JavaScript, told by extension or
 * shebang) are searched for network use the card does not declare, process spawning, and environment reads of names
 * outside {@code allowed_env_vars}: medium findings, since a pattern is not proof. Every file is searched for secrets
 * (PEM private keys, AWS access key ids, GitHub, Slack and OpenAI-style tokens, password-like assignments with long
 * literal values), and for ELF binaries; the archive's entries for setuid or setgid bits: high findings, which
 * reject. A bundle ships source for the host's interpreters, so a native binary has no business in it. Findings
 * name the file and line, never the secret.
 */
final class StaticScan {

    static final String NAME = "static_scan";

    /** Read by any agent without saying so: not secrets, and set by the sandbox or the interpreter. */
    static final Set<String> HARMLESS_ENV = Set.of("PATH", "HOME", "PWD", "OLDPWD", "LANG", "LANGUAGE", "LC_ALL",
            "LC_CTYPE", "TERM", "TMPDIR", "USER", "SHELL", "IFS", "SCRATCH", "PYTHONPATH", "PYTHONIOENCODING",
            "NODE_ENV", "TZ", "HOSTNAME", "RANDOM", "LINENO", "SECONDS", "REPLY", "OPTARG", "OPTIND", "UID", "EUID",
            "PPID", "BASH_SOURCE", "BASH_VERSION", "FUNCNAME", "PIPESTATUS", "BASH_REMATCH");

    private enum Language { PYTHON, SHELL, NODE }

    private record Rule(Pattern pattern, String what) {
    }

    private static Rule rule(String regex, String what) {
        return new Rule(Pattern.compile(regex, Pattern.MULTILINE), what);
    }

    private static final List<Rule> PYTHON_NETWORK = List.of(
            rule("^[ \\t]*(?:import|from)[ \\t]+(socket|urllib2?|urllib3|requests|http\\.client|httplib|aiohttp|httpx"
                    + "|ftplib|smtplib|telnetlib|websocket|websockets)\\b", "imports $1"),
            rule("\\b(urlopen|create_connection|open_connection)\\s*\\(", "calls $1"),
            rule("__import__\\s*\\(\\s*['\"](socket|urllib|requests|http\\.client)", "imports $1 dynamically"));
    private static final List<Rule> SHELL_NETWORK = List.of(
            rule("(?:^|[\\s;|&(`])(curl|wget|nc|ncat|netcat|socat|telnet|ssh|scp|ftp)(?=\\s|$)", "runs $1"),
            rule("/dev/(tcp|udp)/", "opens /dev/$1"));
    private static final List<Rule> NODE_NETWORK = List.of(
            rule("require\\s*\\(\\s*['\"](?:node:)?(net|http|https|http2|dgram|tls|axios|node-fetch|got|request)"
                    + "['\"]\\s*\\)", "requires $1"),
            rule("\\bfrom\\s+['\"](?:node:)?(net|http|https|http2|dgram|tls|axios|node-fetch|got)['\"]", "imports $1"),
            rule("(?<![\\w.])fetch\\s*\\(", "calls fetch"),
            rule("\\bnew\\s+(WebSocket|XMLHttpRequest)\\b", "creates a $1"));

    private static final List<Rule> PYTHON_PROCESS = List.of(
            rule("\\bsubprocess\\b", "uses subprocess"),
            rule("\\bos\\.(system|popen|exec\\w*|spawn\\w*|fork\\w*|posix_spawn\\w*)\\s*\\(", "calls os.$1"),
            rule("\\bpty\\.spawn\\b", "calls pty.spawn"));
    private static final List<Rule> NODE_PROCESS = List.of(
            rule("\\bchild_process\\b", "uses child_process"),
            rule("\\bprocess\\.binding\\s*\\(", "calls process.binding"));

    private static final Pattern PY_ENV_NAMED = Pattern.compile(
            "\\bos\\.(?:environ\\s*\\[\\s*|environ\\.get\\s*\\(\\s*|getenv\\s*\\(\\s*|environ\\.pop\\s*\\(\\s*)"
                    + "[rbuRBU]?['\"]([^'\"\\n]{1,100})['\"]");
    private static final Pattern PY_ENV_WHOLE = Pattern.compile(
            "\\bos\\.environb?\\b(?!\\s*\\[\\s*[rbuRBU]?['\"]|\\.get\\s*\\(\\s*[rbuRBU]?['\"]"
                    + "|\\.pop\\s*\\(\\s*[rbuRBU]?['\"])"
                    + "|\\bos\\.getenv\\s*\\(\\s*(?![rbuRBU]?['\"])");
    private static final Pattern NODE_ENV_NAMED = Pattern.compile(
            "\\bprocess\\.env(?:\\.([A-Za-z_$][\\w$]{0,99})|\\[\\s*['\"`]([^'\"`\\n]{1,100})['\"`]\\s*\\])");
    private static final Pattern NODE_ENV_WHOLE = Pattern.compile(
            "\\bprocess\\.env\\b(?!\\s*\\.[A-Za-z_$]|\\s*\\[\\s*['\"`])");
    private static final Pattern SHELL_VAR = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]{0,99})");
    private static final Pattern SHELL_ASSIGNED = Pattern.compile(
            "(?:^|[\\s;&|(])(?:(?:export|local|declare|readonly|typeset)\\s+(?:-\\w+\\s+)*)?"
                    + "([A-Za-z_][A-Za-z0-9_]*)\\+?="
                    + "|\\bread\\s+(?:-\\w+\\s+)*([A-Za-z_][A-Za-z0-9_ ]*)|\\bfor\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+in\\b",
            Pattern.MULTILINE);
    private static final Pattern SHELL_ENV_WHOLE = Pattern.compile("(?:^|[\\s;|&(`$])(env|printenv|export\\s+-p|set)"
            + "(?=\\s*(?:$|[;|&)`>]))", Pattern.MULTILINE);

    private static final List<Rule> SECRETS = List.of(
            rule("-----BEGIN (?:(?:RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY(?: BLOCK)?-----", "a private key"),
            rule("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b", "an AWS access key id"),
            rule("\\bgh[pousr]_[A-Za-z0-9]{36}\\b", "a GitHub token"),
            rule("\\bgithub_pat_[A-Za-z0-9_]{22,255}\\b", "a GitHub fine-grained token"),
            rule("\\bxox[abposr]-[A-Za-z0-9-]{10,}", "a Slack token"),
            rule("\\bsk-(?:proj-|ant-|live-)?[A-Za-z0-9_-]{20,}", "an API secret key (sk-…)"),
            rule("(?i)\\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)"
                    + "\\b['\"]?\\s*[:=]\\s*['\"][^'\"\\s$%{}<>]{12,}['\"]", "a password-like value in a literal"),
            rule("(?m)^[ \\t]*(?:export[ \\t]+)?[A-Z0-9_]{0,40}(?:PASSWORD|PASSWD|SECRET|API_KEY|APIKEY|TOKEN)"
                    + "[A-Z0-9_]{0,40}[ \\t]*=[ \\t]*[^\\s'\"$({#]{12,}[ \\t]*$", "a password-like value assigned"));

    private final Permissions declared;
    /** An image's application may hold native programs: its root brings the libraries they need. */
    private final boolean nativeAllowed;

    StaticScan(Permissions declared) {
        this(declared, false);
    }

    StaticScan(Permissions declared, boolean nativeAllowed) {
        this.declared = declared;
        this.nativeAllowed = nativeAllowed;
    }

    /** Scans the unpacked bundle at {@code root}; {@code archive} (may be null) is read for setuid/setgid bits. */
    List<CheckFinding> scan(Path root, Path archive, String format) {
        var findings = new ArrayList<CheckFinding>();
        if (archive != null) {
            findings.addAll(specialModes(archive, format));
        }
        BundleFiles files = BundleFiles.of(root);
        for (BundleFiles.BundleFile file : files.files()) {
            byte[] head = files.head(file, 4);
            if (head.length == 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F') {
                if (nativeAllowed) {
                    continue;
                }
                findings.add(CheckFinding.high(file.name(), "An ELF binary: a bundle ships source for the host's "
                        + "interpreters, not native code"));
                continue;
            }
            var text = files.text(file);
            if (text.isEmpty()) {
                continue;
            }
            findings.addAll(secrets(file.name(), text.get()));
            Language language = language(file.name(), text.get());
            if (language != null) {
                findings.addAll(code(file.name(), text.get(), language));
            }
        }
        findings.addAll(files.notes());
        return findings;
    }

    static List<CheckFinding> secrets(String name, String text) {
        var found = new ArrayList<CheckFinding>();
        for (Rule r : SECRETS) {
            Matcher m = r.pattern().matcher(text);
            if (m.find()) {
                // one finding per kind and file is enough to reject; the value itself is never repeated
                found.add(CheckFinding.high(name + ":" + line(text, m.start()), "A secret in the bundle: "
                        + r.what() + "; ship secrets through allowed_env_vars, never in files"));
            }
        }
        return found;
    }

    private List<CheckFinding> code(String name, String text, Language language) {
        var found = new ArrayList<CheckFinding>();
        var lines = new Lines(text);
        if (!declared.network()) {
            List<Rule> rules = switch (language) {
                case PYTHON -> PYTHON_NETWORK;
                case SHELL -> SHELL_NETWORK;
                case NODE -> NODE_NETWORK;
            };
            for (Map.Entry<String, Integer> hit : hits(text, lines, rules).entrySet()) {
                found.add(CheckFinding.medium(name + ":" + hit.getValue(), "Network use (" + hit.getKey()
                        + ") while the card declares no network"));
            }
        }
        List<Rule> process = switch (language) {
            case PYTHON -> PYTHON_PROCESS;
            case NODE -> NODE_PROCESS;
            case SHELL -> List.of();
        };
        for (Map.Entry<String, Integer> hit : hits(text, lines, process).entrySet()) {
            found.add(CheckFinding.medium(name + ":" + hit.getValue(), "Process spawning (" + hit.getKey() + ")"));
        }
        found.addAll(environment(name, text, lines, language));
        return found;
    }

    /** Each rule's distinct findings (its text with the group filled in) with the line of the first. */
    private static Map<String, Integer> hits(String text, Lines lines, List<Rule> rules) {
        var hits = new LinkedHashMap<String, Integer>();
        for (Rule r : rules) {
            Matcher m = r.pattern().matcher(text);
            while (m.find() && hits.size() < 20) {
                String what = m.groupCount() >= 1 && m.group(1) != null ? r.what().replace("$1", m.group(1))
                        : r.what();
                if (!hits.containsKey(what)) {
                    // the match may begin with the separator before the word, on the line before
                    hits.put(what, lines.of(m.groupCount() >= 1 && m.group(1) != null ? m.start(1) : m.start()));
                }
            }
        }
        return hits;
    }

    private List<CheckFinding> environment(String name, String text, Lines lines, Language language) {
        var names = new LinkedHashMap<String, Integer>();
        Integer whole = null;
        switch (language) {
            case PYTHON -> {
                Matcher m = PY_ENV_NAMED.matcher(text);
                while (m.find()) {
                    remember(names, m.group(1), lines, m.start());
                }
                Matcher w = PY_ENV_WHOLE.matcher(text);
                whole = w.find() ? lines.of(w.start()) : null;
            }
            case NODE -> {
                Matcher m = NODE_ENV_NAMED.matcher(text);
                while (m.find()) {
                    remember(names, m.group(1) != null ? m.group(1) : m.group(2), lines, m.start());
                }
                Matcher w = NODE_ENV_WHOLE.matcher(text);
                whole = w.find() ? lines.of(w.start()) : null;
            }
            case SHELL -> {
                Set<String> assigned = new HashSet<>();
                Matcher a = SHELL_ASSIGNED.matcher(text);
                while (a.find()) {
                    for (int g = 1; g <= 3; g++) {
                        if (a.group(g) != null) {
                            assigned.addAll(List.of(a.group(g).trim().split("\\s+")));
                        }
                    }
                }
                Matcher m = SHELL_VAR.matcher(text);
                while (m.find()) {
                    if (!assigned.contains(m.group(1))) {
                        remember(names, m.group(1), lines, m.start());
                    }
                }
                Matcher w = SHELL_ENV_WHOLE.matcher(text);
                whole = w.find() ? lines.of(w.start(1)) : null;
            }
            default -> throw new IllegalStateException();
        }
        var found = new ArrayList<CheckFinding>();
        Set<String> allowed = new HashSet<>(declared.allowedEnvVars());
        for (Map.Entry<String, Integer> e : names.entrySet()) {
            if (!allowed.contains(e.getKey()) && !HARMLESS_ENV.contains(e.getKey()) && found.size() < 20) {
                found.add(CheckFinding.medium(name + ":" + e.getValue(), "Reads the environment variable "
                        + printable(e.getKey()) + ", which allowed_env_vars does not declare"));
            }
        }
        if (whole != null) {
            found.add(CheckFinding.medium(name + ":" + whole, "Reads the whole environment, not only "
                    + "allowed_env_vars"));
        }
        return found;
    }

    /** At most 100 distinct names, each with the line where it was first read. */
    private static void remember(Map<String, Integer> names, String name, Lines lines, int offset) {
        if (names.size() < 100 && !names.containsKey(name)) {
            names.put(name, lines.of(offset));
        }
    }

    private static Language language(String name, String text) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".py") || lower.endsWith(".pyw")) {
            return Language.PYTHON;
        }
        if (lower.endsWith(".sh") || lower.endsWith(".bash")) {
            return Language.SHELL;
        }
        if (lower.endsWith(".js") || lower.endsWith(".mjs") || lower.endsWith(".cjs") || lower.endsWith(".ts")) {
            return Language.NODE;
        }
        if (text.startsWith("#!")) {
            int end = text.indexOf('\n');
            String shebang = text.substring(0, end < 0 ? Math.min(text.length(), 200) : Math.min(end, 200));
            if (shebang.contains("python")) {
                return Language.PYTHON;
            }
            if (shebang.contains("node")) {
                return Language.NODE;
            }
            if (shebang.matches("#!\\s*\\S*/(?:env\\s+)?(?:ba|da|z|k)?sh\\b.*")
                    || shebang.matches(".*\\benv\\s+(?:ba|da|z|k)?sh\\b.*")) {
                return Language.SHELL;
            }
        }
        return null;
    }

    /** The 1-based line of an offset. */
    static int line(String text, int offset) {
        return new Lines(text).of(offset);
    }

    /** Line numbers by binary search over the newline offsets, so that many matches in a large file stay cheap. */
    static final class Lines {
        private final int[] newlines;

        Lines(String text) {
            newlines = IntStream.range(0, text.length()).filter(i -> text.charAt(i) == '\n').toArray();
        }

        int of(int offset) {
            int i = Arrays.binarySearch(newlines, offset);
            return (i >= 0 ? i : -i - 1) + 1;
        }
    }

    private static String printable(String s) {
        return s.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? s : s.replaceAll("[^\\x20-\\x7e]", "?");
    }

    /** Archive entries with the setuid or setgid bit: the unpacked copy drops them, so the archive itself is read. */
    static List<CheckFinding> specialModes(Path archive, String format) {
        var found = new ArrayList<CheckFinding>();
        try {
            if ("zip".equals(format)) {
                try (var zip = ZipFile.builder().setPath(archive).get()) {
                    var entries = zip.getEntries();
                    while (entries.hasMoreElements() && found.size() < 20) {
                        ZipArchiveEntry e = entries.nextElement();
                        special(found, e.getName(), e.getUnixMode());
                    }
                }
            } else {
                try (var tar = new TarArchiveInputStream(new GZIPInputStream(new BufferedInputStream(
                        Files.newInputStream(archive))))) {
                    TarArchiveEntry e;
                    while ((e = tar.getNextEntry()) != null && found.size() < 20) {
                        special(found, e.getName(), e.getMode());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            found.add(CheckFinding.low("", "The archive's file modes could not be read"));
        }
        return found;
    }

    private static void special(List<CheckFinding> found, String name, int mode) {
        if ((mode & 04000) != 0) {
            found.add(CheckFinding.high(name, "A setuid file"));
        } else if ((mode & 02000) != 0 && (mode & 040000) == 0) {
            found.add(CheckFinding.high(name, "A setgid file"));
        }
    }
}
