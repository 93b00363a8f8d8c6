package dev.atrium.platform.persistence;

import java.sql.Types;
import java.util.UUID;

import org.eclipse.persistence.mappings.DatabaseMapping;
import org.eclipse.persistence.mappings.converters.Converter;
import org.eclipse.persistence.sessions.Session;

/**
 * Maps a UUID column that may be NULL. The EclipseLink of Payara 6 fails on such a column both ways: reading NULL
 * ({@code UUIDConverter} calls {@code toString()} on it) and writing NULL (bound as VARCHAR, which PostgreSQL refuses
 * for a {@code uuid} column). This passes values through and binds the column as {@link Types#OTHER}, which the
 * drivers send untyped.
 */
public class NullableUuidConverter implements Converter {

    /** The name the entities use in {@code @Convert}. */
    public static final String NAME = "nullableUuid";

    @Override
    public Object convertObjectValueToDataValue(Object objectValue, Session session) {
        return objectValue;
    }

    @Override
    public Object convertDataValueToObjectValue(Object dataValue, Session session) {
        return dataValue == null || dataValue instanceof UUID ? dataValue
                : UUID.fromString(dataValue.toString());
    }

    @Override
    public boolean isMutable() {
        return false;
    }

    @Override
    public void initialize(DatabaseMapping mapping, Session session) {
        mapping.getField().setSqlType(Types.OTHER);
    }
}
