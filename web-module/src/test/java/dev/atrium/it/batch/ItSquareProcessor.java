package dev.atrium.it.batch;

import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

/** Squares each number. */
@Named
@Dependent
public class ItSquareProcessor implements ItemProcessor {

    @Override
    public Object processItem(Object item) {
        long n = ((Integer) item).longValue();
        return n * n;
    }
}
