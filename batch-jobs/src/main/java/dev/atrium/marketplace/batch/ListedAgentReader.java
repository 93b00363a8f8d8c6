package dev.atrium.marketplace.batch;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import jakarta.batch.api.chunk.AbstractItemReader;

/**
 * The listed agents' ids in id order, read a page at a time. Its checkpoint is the last id handed out, so a restart
 * continues after the agents already done (and an agent listed meanwhile with a higher id is still reached).
 */
public abstract class ListedAgentReader extends AbstractItemReader {

    static final int PAGE = 500;

    private BiFunction<UUID, Integer, List<UUID>> pages;
    private final ArrayDeque<UUID> buffered = new ArrayDeque<>();
    private UUID last;
    private boolean exhausted;

    protected ListedAgentReader() {
    }

    /** For tests: the pages come from {@code pages} (after, limit) instead of the database. */
    ListedAgentReader(BiFunction<UUID, Integer, List<UUID>> pages) {
        this.pages = pages;
    }

    /** Up to {@code limit} listed agents' ids after {@code after} (null: from the first), in id order. */
    protected abstract List<UUID> page(UUID after, int limit);

    @Override
    public void open(Serializable checkpoint) {
        if (pages == null) {
            pages = this::page;
        }
        last = checkpoint == null ? null : UUID.fromString((String) checkpoint);
        buffered.clear();
        exhausted = false;
    }

    @Override
    public Object readItem() {
        if (buffered.isEmpty() && !exhausted) {
            List<UUID> page = pages.apply(last, PAGE);
            buffered.addAll(page);
            exhausted = page.size() < PAGE;
        }
        UUID next = buffered.poll();
        if (next != null) {
            last = next;
        }
        return next;
    }

    @Override
    public Serializable checkpointInfo() {
        return last == null ? null : last.toString();
    }
}
