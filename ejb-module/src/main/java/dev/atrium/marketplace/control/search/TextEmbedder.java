package dev.atrium.marketplace.control.search;

/** Turns text into a unit-length vector whose cosine with another tells how close their meanings are. */
public interface TextEmbedder {

    float[] embed(String text);

    /** Names the model, stored beside each vector so that a model change is noticed. */
    String modelId();

    int dimension();
}
