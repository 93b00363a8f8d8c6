package dev.atrium.marketplace.batch;

import java.util.List;
import java.util.UUID;

import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Named;

import dev.atrium.marketplace.control.quality.QualityScoring;

/** Scores a chunk of agents in the chunk's transaction. */
@Named
@Dependent
public class QualityScoreWriter extends AbstractItemWriter {

    @EJB
    QualityScoring scoring;

    @Override
    public void writeItems(List<Object> items) {
        scoring.score(items.stream().map(UUID.class::cast).toList());
    }
}
