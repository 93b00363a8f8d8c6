package dev.atrium.platform.persistence;

import java.util.UUID;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * Maps a UUID column that may be NULL. The EclipseLink of Payara 6 converts UUID columns itself and fails on a NULL
 * one ({@code UUIDConverter} calls {@code toString()} on it); named on such an attribute, this passes values through.
 */
@Converter
public class NullableUuidConverter implements AttributeConverter<UUID, Object> {

    @Override
    public Object convertToDatabaseColumn(UUID value) {
        return value;
    }

    @Override
    public UUID convertToEntityAttribute(Object value) {
        if (value == null || value instanceof UUID) {
            return (UUID) value;
        }
        return UUID.fromString(value.toString());
    }
}
