package dev.atrium.marketplace.batch;

import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import dev.atrium.marketplace.control.submission.RescanService;

/** The listed agents the agent-rescan job re-scans, in id order (see {@link ListedAgentReader}). */
@Named
@Dependent
public class RescanAgentReader extends ListedAgentReader {

    @EJB
    RescanService rescans;

    public RescanAgentReader() {
    }

    /** For tests: the pages come from {@code pages} (after, limit) instead of the database. */
    RescanAgentReader(BiFunction<UUID, Integer, List<UUID>> pages) {
        super(pages);
    }

    @Override
    protected List<UUID> page(UUID after, int limit) {
        return rescans.listed(after, limit);
    }
}
