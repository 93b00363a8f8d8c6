package dev.atrium.ai.control.files;

import jakarta.enterprise.context.ApplicationScoped;

/** The application's one {@link FileParser}, made on first use (loading Tika's parsers takes a second or two). */
@ApplicationScoped
public class FileParsers {

    private volatile FileParser parser;

    public FileParser get() {
        FileParser current = parser;
        if (current == null) {
            synchronized (this) {
                if (parser == null) {
                    parser = new FileParser();
                }
                current = parser;
            }
        }
        return current;
    }
}
