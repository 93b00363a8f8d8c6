package dev.atrium.marketplace.control;

import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The application's one embedding model, loaded on first use (the search index's start loads it while the
 * application deploys). A model that cannot load fails loudly: there is no stand-in embedding.
 */
@ApplicationScoped
public class Embeddings {

    private static final Logger LOG = Logger.getLogger(Embeddings.class.getName());

    @Inject
    MarketplaceSettings settings;

    private volatile TextEmbedder embedder;

    public TextEmbedder embedder() {
        TextEmbedder e = embedder;
        if (e == null) {
            synchronized (this) {
                e = embedder;
                if (e == null) {
                    long started = System.nanoTime();
                    e = new MiniLmEmbedder(settings.nativeDir());
                    embedder = e;
                    long ms = (System.nanoTime() - started) / 1_000_000;
                    LOG.info(() -> "Embedding model " + MiniLmEmbedder.MODEL_ID + " loaded in " + ms + " ms");
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
