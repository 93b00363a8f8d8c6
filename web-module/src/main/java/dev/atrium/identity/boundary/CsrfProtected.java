package dev.atrium.identity.boundary;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public ({@code @PermitAll}) method that still acts on the caller's cookie session, such as logout, so it
 * needs a CSRF token like any authenticated change.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CsrfProtected {
}
