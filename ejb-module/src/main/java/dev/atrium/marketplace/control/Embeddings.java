package dev.atrium.marketplace.control;

import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The application's one embedding model, loaded on first use (the search index's start loads it while the
 * application deploys). A model that cannot load fails loudly: there is no stand-in embedding.
 */
@ApplicationScoped
public class Embeddings {

    private static final Logger LOG = Logger.getLogger(Embeddings.class.getName());

    private volatile TextEmbedder embedder;

    public TextEmbedder embedder() {
        TextEmbedder e = embedder;
        if (e == null) {
            synchronized (this) {
                e = embedder;
                if (e == null) {
                    long started = System.nanoTime();
                    e = new MiniLmEmbedder();
                    embedder = e;
                    long ms = (System.nanoTime() - started) / 1_000_000;
                    LOG.info(() -> "Embedding model " + MiniLmEmbedder.MODEL_ID + " loaded in " + ms
                            + " ms, its tokenizer's native library in " + MiniLmEmbedder.nativeDir());
                }
            }
        }
        return e;
    }

    public float[] embed(String text) {
        return embedder().embed(text);
    }

    public String modelId() {
        return embedder().modelId();
    }
}
