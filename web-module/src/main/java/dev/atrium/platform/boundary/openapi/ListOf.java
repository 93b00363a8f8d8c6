package dev.atrium.platform.boundary.openapi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a list endpoint, whose method returns {@code Object} because the envelope depends on the query: a
 * {@code ListEnvelope} with {@code page}/{@code page_size}, a {@code CursorEnvelope} with {@code cursor}/{@code limit}.
 * The OpenAPI document then describes its 200 answer as either envelope of these items and lists the shared list
 * query parameters of spec 01.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ListOf {

    /** The type of the items. */
    Class<?> value();
}
