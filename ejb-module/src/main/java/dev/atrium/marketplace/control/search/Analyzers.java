package dev.atrium.marketplace.control.search;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The application's one {@link TaskAnalyzer}, whose cache of vocabulary embeddings lives as long as it does. */
@ApplicationScoped
public class Analyzers {

    @Inject
    Embeddings embeddings;

    private volatile TaskAnalyzer analyzer;

    public TaskAnalyzer analyzer() {
        TaskAnalyzer a = analyzer;
        if (a == null) {
            synchronized (this) {
                if (analyzer == null) {
                    analyzer = new TaskAnalyzer(embeddings.embedder());
                }
                a = analyzer;
            }
        }
        return a;
    }
}
