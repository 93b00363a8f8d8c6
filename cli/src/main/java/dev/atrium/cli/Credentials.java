package dev.atrium.cli;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

/**
 * The base URL and API key: {@code ATRIUM_BASE_URL} and {@code ATRIUM_API_KEY} when set, else the file
 * {@code credentials} in the config directory, which {@code agent login} writes readable by its owner only (0600).
 */
record Credentials(String baseUrl, String apiKey) {

    static final String DEFAULT_BASE_URL = "http://localhost:8080";
    static final String FILE = "credentials";

    static Credentials load(Environment env) {
        var stored = new Properties();
        Path file = env.configDirectory().resolve(FILE);
        if (Files.isRegularFile(file)) {
            try {
                stored.load(new StringReader(Files.readString(file)));
            } catch (IOException | IllegalArgumentException e) {
                throw CliException.user("Cannot read " + file + ": run `agent login` again");
            }
        }
        String baseUrl = first(env.variable("ATRIUM_BASE_URL"), stored.getProperty("base_url"), DEFAULT_BASE_URL);
        String apiKey = first(env.variable("ATRIUM_API_KEY"), stored.getProperty("api_key"), null);
        return new Credentials(baseUrl, apiKey);
    }

    /** This key, or a hint to log in. */
    String requireKey() {
        if (apiKey == null) {
            throw CliException.user("Not logged in: run `agent login`, or set ATRIUM_API_KEY");
        }
        return apiKey;
    }

    /** Writes the file owner-only from its first byte: created 0600 under a temporary name, then moved in place. */
    Path save(Environment env) {
        Path dir = env.configDirectory();
        Path file = dir.resolve(FILE);
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
            var properties = new Properties();
            properties.setProperty("base_url", baseUrl);
            properties.setProperty("api_key", apiKey);
            var text = new StringWriter();
            properties.store(text, "agent login");
            Path temporary = dir.resolve(FILE + ".tmp");
            Files.deleteIfExists(temporary);
            try {
                Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                        "rw-------")));
            } catch (FileAlreadyExistsException e) {
                throw new IOException("another login is writing " + temporary, e);
            }
            Files.writeString(temporary, text.toString());
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException | UnsupportedOperationException e) {
            throw CliException.user("Cannot write " + file + ": " + e.getMessage());
        }
    }

    private static String first(String a, String b, String fallback) {
        return a != null ? a : b != null && !b.isBlank() ? b.trim() : fallback;
    }
}
