package dev.atrium.marketplace.control.search;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;

import dev.atrium.platform.startup.StartedAhead;

/**
 * Loads the embedding model when CDI begins the application's deployment, on a thread of its own, so that the load
 * (0.5 to 1.5 s: the ONNX session and the tokenizer's native library) runs beside the rest of the deployment instead
 * of inside the search index's start; {@link Embeddings} takes it on first use. The model holds no resource beyond
 * memory, so one nobody takes is left to the garbage collector.
 */
public class EmbeddingModelAhead implements Extension {

    private volatile StartedAhead<TextEmbedder> ahead;

    void begin(@Observes BeforeBeanDiscovery event) {
        ahead = StartedAhead.begin("atrium-model-load", Embeddings::load);
    }

    /** The model loaded ahead, once loaded (its failure thrown here); empty when there was none or it was taken. */
    Optional<TextEmbedder> take() {
        var loading = ahead;
        return loading == null ? Optional.empty() : loading.take();
    }
}
