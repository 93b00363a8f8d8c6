package dev.atrium.billing.batch;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BiFunction;

import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import dev.atrium.billing.control.Payouts;

/** Developers with earnings, by id, a page at a time; the checkpoint is the last id handed out. */
@Named
@Dependent
public class PayoutDeveloperReader extends AbstractItemReader {

    static final int PAGE = 1000;

    @EJB
    Payouts payouts;

    private BiFunction<Long, Integer, List<Long>> pages;
    private final ArrayDeque<Long> buffered = new ArrayDeque<>();
    private long last;
    private boolean exhausted;

    public PayoutDeveloperReader() {
    }

    /** For tests: the pages come from {@code pages} (after, limit). */
    PayoutDeveloperReader(BiFunction<Long, Integer, List<Long>> pages) {
        this.pages = pages;
    }

    @Override
    public void open(Serializable checkpoint) {
        if (pages == null) {
            pages = payouts::developersAfter;
        }
        last = checkpoint == null ? 0 : (Long) checkpoint;
        buffered.clear();
        exhausted = false;
    }

    @Override
    public Object readItem() {
        if (buffered.isEmpty() && !exhausted) {
            List<Long> page = pages.apply(last, PAGE);
            buffered.addAll(page);
            exhausted = page.size() < PAGE;
        }
        Long next = buffered.poll();
        if (next != null) {
            last = next;
        }
        return next;
    }

    @Override
    public Serializable checkpointInfo() {
        return last;
    }
}
