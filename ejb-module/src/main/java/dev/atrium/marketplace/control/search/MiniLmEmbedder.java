package dev.atrium.marketplace.control.search;

import java.nio.file.Path;
import java.util.logging.Logger;

import ai.djl.util.Utils;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

/**
 * all-MiniLM-L6-v2 (384 dimensions) with int8 weights, run in process by ONNX Runtime; the model file and the
 * tokenizer come inside Maven artifacts, so nothing is downloaded. The int8 model rather than the float one: 23 MB
 * instead of 90 in the WAR, loaded in a fraction of the time and 1.7 times faster per text, at the same recall@5 on
 * the relevance fixture (docs/benchmarks.md, "The marketplace"). Loading still takes time, so one instance serves the
 * whole application; it is thread-safe. The native libraries of ONNX Runtime and of the tokenizer are unpacked from
 * their jars: ONNX Runtime into a temporary directory, the tokenizer into DJL's engine cache. Where that cache is and
 * that DJL stays offline (a missing library fails instead of being fetched) are DJL's own settings, read once by its
 * classes: the launchers pass them as {@code ENGINE_CACHE_DIR} (the data directory's {@code native}) and
 * {@code DJL_OFFLINE}, never the application at run time (house rule 11); a JVM without them is named in one warning.
 */
public final class MiniLmEmbedder implements TextEmbedder {

    public static final String MODEL_ID = "all-minilm-l6-v2-q";
    public static final int DIMENSION = 384;

    private static final Logger LOG = Logger.getLogger(MiniLmEmbedder.class.getName());

    private final AllMiniLmL6V2QuantizedEmbeddingModel model;

    public MiniLmEmbedder() {
        if (!Utils.isOfflineMode()) {
            LOG.warning("DJL is not kept offline: start the JVM with DJL_OFFLINE=true in its environment (or"
                    + " -Dai.djl.offline=true), as the launchers do");
        }
        // the model's classes and the native loaders must see the jars they were loaded from
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(MiniLmEmbedder.class.getClassLoader());
        try {
            this.model = new AllMiniLmL6V2QuantizedEmbeddingModel();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Where DJL unpacks the tokenizer's native library ({@code ENGINE_CACHE_DIR}, else its default under the home). */
    public static Path nativeDir() {
        return Utils.getEngineCacheDir("tokenizers");
    }

    @Override
    public float[] embed(String text) {
        return model.embed(text).content().vector();
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }
}
