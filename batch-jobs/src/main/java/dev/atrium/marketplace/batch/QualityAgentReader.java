package dev.atrium.marketplace.batch;

import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import dev.atrium.marketplace.control.quality.QualityScoring;

/** The listed agents the quality-scoring job scores, in id order (see {@link ListedAgentReader}). */
@Named
@Dependent
public class QualityAgentReader extends ListedAgentReader {

    @EJB
    QualityScoring scoring;

    public QualityAgentReader() {
    }

    /** For tests: the pages come from {@code pages} (after, limit) instead of the database. */
    QualityAgentReader(BiFunction<UUID, Integer, List<UUID>> pages) {
        super(pages);
    }

    @Override
    protected List<UUID> page(UUID after, int limit) {
        return scoring.listed(after, limit);
    }
}
