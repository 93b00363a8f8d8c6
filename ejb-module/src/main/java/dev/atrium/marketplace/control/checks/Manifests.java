package dev.atrium.marketplace.control.checks;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.helpers.DefaultHandler;

import dev.atrium.platform.http.JsonInput;

/**
 * Reads the dependencies a bundle declares, from text it does not trust. {@code requirements.txt}:
 * {@code name==version} (also {@code ===} and {@code ~=}, whose version is the lowest allowed), extras and environment markers dropped,
 * options, URLs and other specifiers skipped. {@code package.json}: {@code dependencies} and {@code devDependencies}
 * with an exact, {@code ^} or {@code ~} version (the range's minimum is checked), and a package's own name and
 * version under {@code node_modules}. {@code pom.xml}: {@code groupId:artifactId:version} of the dependencies and
 * managed dependencies, with {@code ${...}} resolved from the same pom's {@code properties} and
 * {@code project.version}; no parent, no ranges, no DTD (a doctype is refused, entities never expand). What cannot be
 * read is reported, never thrown.
 */
final class Manifests {

    /** One declared dependency: ecosystem ({@code PyPI}, {@code npm}, {@code Maven}), normalized name, version. */
    record Dependency(String ecosystem, String name, String version, String file, int line) {
    }

    /** The dependencies read, and what could not be read (file and reason). */
    record Read(List<Dependency> dependencies, List<String> problems) {
    }

    static final int MAX_DEPENDENCIES = 2_000;

    private static final Pattern REQUIREMENT = Pattern.compile(
            "([A-Za-z0-9][A-Za-z0-9._-]{0,200})\\s*(?:\\[[^\\]]{0,200}\\])?\\s*(===|==|~=)\\s*"
                    + "([A-Za-z0-9][A-Za-z0-9.!+_-]{0,100})");
    private static final Pattern NPM_VERSION = Pattern.compile(
            "[\\^~=v]?\\s*(\\d{1,9}(?:\\.\\d{1,9}){0,2}(?:-[0-9A-Za-z.-]{1,60})?)");
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]{1,100})}");

    private Manifests() {
    }

    /** The manifest kind of a file name, or null: {@code requirements.txt}, {@code package.json}, {@code pom.xml}. */
    static String kind(String path) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        return switch (file) {
            case "requirements.txt", "package.json", "pom.xml" -> file;
            default -> null;
        };
    }

    static Read read(String path, String text) {
        var deps = new ArrayList<Dependency>();
        var problems = new ArrayList<String>();
        switch (kind(path)) {
            case "requirements.txt" -> requirements(path, text, deps);
            case "package.json" -> packageJson(path, text, deps, problems);
            case "pom.xml" -> pom(path, text, deps, problems);
            default -> throw new IllegalArgumentException(path);
        }
        return new Read(deps.size() > MAX_DEPENDENCIES ? List.copyOf(deps.subList(0, MAX_DEPENDENCIES))
                : List.copyOf(deps), List.copyOf(problems));
    }

    static void requirements(String path, String text, List<Dependency> out) {
        String[] lines = text.split("\r?\n|\r", -1);
        for (int i = 0; i < lines.length && out.size() < MAX_DEPENDENCIES; i++) {
            String line = lines[i];
            int hash = line.indexOf(" #");
            line = (line.startsWith("#") ? "" : hash >= 0 ? line.substring(0, hash) : line);
            int marker = line.indexOf(';');
            line = (marker >= 0 ? line.substring(0, marker) : line).strip();
            if (line.isEmpty() || line.startsWith("-") || line.contains("://") || line.length() > 500) {
                continue;
            }
            Matcher m = REQUIREMENT.matcher(line);
            if (m.matches() || m.lookingAt() && line.substring(m.end()).strip().startsWith(",")) {
                out.add(new Dependency("PyPI", normalize("PyPI", m.group(1)), m.group(3), path, i + 1));
            }
        }
    }

    static void packageJson(String path, String text, List<Dependency> out, List<String> problems) {
        JsonValue root;
        try {
            root = JsonInput.read(text);
        } catch (RuntimeException e) {
            problems.add(path + ": not valid JSON");
            return;
        }
        if (!(root instanceof JsonObject pkg)) {
            problems.add(path + ": not a JSON object");
            return;
        }
        for (String field : List.of("dependencies", "devDependencies")) {
            if (pkg.get(field) instanceof JsonObject deps) {
                for (Map.Entry<String, JsonValue> e : deps.entrySet()) {
                    if (out.size() >= MAX_DEPENDENCIES) {
                        return;
                    }
                    if (e.getValue() instanceof JsonString v) {
                        npm(e.getKey(), v.getString(), path, out);
                    }
                }
            }
        }
        // a vendored package: node_modules/<name>/package.json describes the installed copy itself
        if (path.contains("node_modules/") && pkg.get("name") instanceof JsonString name
                && pkg.get("version") instanceof JsonString version) {
            npm(name.getString(), version.getString(), path, out);
        }
    }

    private static void npm(String name, String range, String path, List<Dependency> out) {
        Matcher m = NPM_VERSION.matcher(range.strip());
        if (name.length() <= 214 && m.matches()) {
            out.add(new Dependency("npm", normalize("npm", name), m.group(1), path, 0));
        }
    }

    static void pom(String path, String text, List<Dependency> out, List<String> problems) {
        Document doc;
        try {
            var factory = DocumentBuilderFactory.newInstance();
            // no DTD at all: no external entities, no entity expansion bombs
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            var builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler());
            doc = builder.parse(new InputSource(new StringReader(text)));
        } catch (Exception e) {
            problems.add(path + ": not a readable pom.xml");
            return;
        }
        Element project = doc.getDocumentElement();
        if (project == null || !"project".equals(local(project))) {
            problems.add(path + ": no <project> element");
            return;
        }
        Map<String, String> properties = new HashMap<>();
        Element props = child(project, "properties");
        if (props != null) {
            for (Element p : children(props)) {
                properties.put(local(p), p.getTextContent().strip());
            }
        }
        String projectVersion = text(child(project, "version"));
        if (projectVersion != null) {
            properties.putIfAbsent("project.version", projectVersion);
        }
        var sections = new ArrayList<Element>();
        sections.add(child(project, "dependencies"));
        Element managed = child(project, "dependencyManagement");
        if (managed != null) {
            sections.add(child(managed, "dependencies"));
        }
        for (Element deps : sections) {
            if (deps == null) {
                continue;
            }
            for (Element d : children(deps)) {
                if (out.size() >= MAX_DEPENDENCIES) {
                    return;
                }
                String group = resolve(text(child(d, "groupId")), properties);
                String artifact = resolve(text(child(d, "artifactId")), properties);
                String version = resolve(text(child(d, "version")), properties);
                if (group != null && artifact != null && version != null && !version.startsWith("[")
                        && !version.startsWith("(")) {
                    out.add(new Dependency("Maven", group + ":" + artifact, version, path, 0));
                }
            }
        }
    }

    /** {@code ${name}} replaced from the pom's own properties, once (no chains); null when one is unknown. */
    private static String resolve(String value, Map<String, String> properties) {
        if (value == null) {
            return null;
        }
        Matcher m = PROPERTY.matcher(value);
        var out = new StringBuilder();
        while (m.find()) {
            String replacement = properties.get(m.group(1));
            if (replacement == null || replacement.contains("${")) {
                return null;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        String resolved = out.toString().strip();
        return resolved.isEmpty() || resolved.length() > 200 ? null : resolved;
    }

    private static String local(Node n) {
        return n.getLocalName() != null ? n.getLocalName() : n.getNodeName();
    }

    private static Element child(Element parent, String name) {
        return children(parent).stream().filter(e -> name.equals(local(e))).findFirst().orElse(null);
    }

    private static List<Element> children(Element parent) {
        var out = new ArrayList<Element>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            }
        }
        return out;
    }

    private static String text(Element e) {
        if (e == null) {
            return null;
        }
        String t = e.getTextContent().strip();
        return t.isEmpty() ? null : t;
    }

    /** PyPI names compare case-insensitively, runs of {@code - _ .} as one {@code -} (PEP 503); npm lower-cased. */
    static String normalize(String ecosystem, String name) {
        if (ecosystem.equals("PyPI")) {
            return name.toLowerCase(Locale.ROOT).replaceAll("[-_.]+", "-");
        }
        return ecosystem.equals("npm") ? name.toLowerCase(Locale.ROOT) : name;
    }
}
