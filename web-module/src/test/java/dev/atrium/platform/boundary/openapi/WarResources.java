package dev.atrium.platform.boundary.openapi;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.ApplicationPath;

/**
 * The WAR's classes, found by walking its compiled classes directory, so that a resource added later is covered
 * without touching the tests; and the OpenAPI document the build generated from them.
 */
final class WarResources {

    private static final List<Class<?>> CLASSES = load();
    private static JsonObject document;

    private WarResources() {
    }

    /** Every class of the WAR carrying JAX-RS {@code @Path}. */
    static List<Class<?>> resources() {
        return CLASSES.stream().filter(c -> c.isAnnotationPresent(jakarta.ws.rs.Path.class)).toList();
    }

    static String applicationPath() {
        return CLASSES.stream().filter(c -> c.isAnnotationPresent(ApplicationPath.class))
                .map(c -> c.getAnnotation(ApplicationPath.class).value()).findFirst().orElse("/");
    }

    /** The generated {@code META-INF/openapi.json}, as the application serves it. */
    static synchronized JsonObject document() {
        if (document == null) {
            try (var reader = Json.createReader(new StringReader(text("/META-INF/openapi.json")))) {
                document = reader.readObject();
            }
        }
        return document;
    }

    static String text(String resource) {
        try (InputStream in = WarResources.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing: the build's process-classes phase writes it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Class<?>> classes() {
        return CLASSES;
    }

    private static List<Class<?>> load() {
        Path root;
        try {
            root = Path.of(OpenApiResource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(root::relativize).map(Path::toString).filter(f -> f.endsWith(".class"))
                    .filter(f -> !f.equals("module-info.class") && !f.endsWith("package-info.class"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
                    .sorted().<Class<?>>map(WarResources::load).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, WarResources.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
