package dev.atrium.marketplace.control.search;

/** The real embedding model, loaded once for all the tests of a run (loading takes seconds). */
final class TestModel {

    private static MiniLmEmbedder embedder;

    private TestModel() {
    }

    static synchronized MiniLmEmbedder embedder() {
        if (embedder == null) {
            embedder = new MiniLmEmbedder();
        }
        return embedder;
    }
}
