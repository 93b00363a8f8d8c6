package dev.atrium.marketplace.control.search;

import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The application's one embedding model, loaded on first use: while the application deploys, by
 * {@link EmbeddingModelAhead}, or else by the search index's start. A model that cannot load fails loudly: there is
 * no stand-in embedding.
 */
@ApplicationScoped
public class Embeddings {

    private static final Logger LOG = Logger.getLogger(Embeddings.class.getName());

    @Inject
    EmbeddingModelAhead ahead;

    private volatile TextEmbedder embedder;

    public TextEmbedder embedder() {
        TextEmbedder e = embedder;
        if (e == null) {
            synchronized (this) {
                e = embedder;
                if (e == null) {
                    e = (ahead == null ? Optional.<TextEmbedder>empty() : ahead.take()).orElseGet(Embeddings::load);
                    embedder = e;
                }
            }
        }
        return e;
    }

    /** Loads the model, logging how long it took. */
    static TextEmbedder load() {
        long started = System.nanoTime();
        TextEmbedder e = new MiniLmEmbedder();
        long ms = (System.nanoTime() - started) / 1_000_000;
        LOG.info(() -> "Embedding model " + MiniLmEmbedder.MODEL_ID + " loaded in " + ms
                + " ms, its tokenizer's native library in " + MiniLmEmbedder.nativeDir());
        return e;
    }

    public float[] embed(String text) {
        return embedder().embed(text);
    }

    public String modelId() {
        return embedder().modelId();
    }
}
