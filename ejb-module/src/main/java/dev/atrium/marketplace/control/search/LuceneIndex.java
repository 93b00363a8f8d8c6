package dev.atrium.marketplace.control.search;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * An in-memory Lucene index of vectors of one dimension: one {@link IndexWriter} for changes, a
 * {@link SearcherManager} refreshed after each change for searches, I/O failures as unchecked ones.
 */
abstract class LuceneIndex implements Closeable {

    private final int dimension;
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
    final IndexWriter writer;
    private final SearcherManager searchers;

    LuceneIndex(int dimension, Analyzer analyzer) {
        this.dimension = dimension;
        try {
            writer = new IndexWriter(directory, new IndexWriterConfig(analyzer)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE));
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    interface Write {
        void run() throws IOException;
    }

    @FunctionalInterface
    interface Read<T> {
        T run(IndexSearcher searcher) throws IOException;
    }

    /** Makes the change, then refreshes the view searches see. */
    final void write(Write change) {
        try {
            change.run();
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the last refreshed view. */
    final <T> T search(Read<T> read) {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                return read.run(searcher);
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    final void checkDimension(float[] vector) {
        if (vector == null || vector.length != dimension) {
            throw new IllegalArgumentException("Expected a vector of " + dimension + " dimensions");
        }
    }

    @Override
    public void close() {
        try {
            searchers.close();
            writer.close();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
