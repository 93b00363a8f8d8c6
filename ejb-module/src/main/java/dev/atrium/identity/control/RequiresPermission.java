package dev.atrium.identity.control;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The permission codes a resource method (or every method of a class) needs, all of them. A caller lacking one is
 * answered 403 with a message naming the missing permission.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresPermission {

    String[] value();
}
