package dev.atrium.platform.persistence;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * Stores {@link Instant} as {@code TIMESTAMP WITH TIME ZONE} in UTC. The EclipseLink of Payara 6 does not map
 * {@code Instant} natively and would otherwise serialize it into the column.
 */
@Converter(autoApply = true)
public class InstantConverter implements AttributeConverter<Instant, OffsetDateTime> {

    @Override
    public OffsetDateTime convertToDatabaseColumn(Instant value) {
        return value == null ? null : value.atOffset(ZoneOffset.UTC);
    }

    @Override
    public Instant convertToEntityAttribute(OffsetDateTime value) {
        return value == null ? null : value.toInstant();
    }
}
