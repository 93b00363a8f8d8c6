package dev.atrium.platform.boundary.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Context;

import org.junit.jupiter.api.Test;

/**
 * Resources are created once (a request-scoped resource cost every request its construction and an EJB reference
 * per injected service, 8–10 % of a list's or a refresh's CPU), so they may hold nothing of a request: every field
 * is injected, and what belongs to a request ({@code UriInfo}, {@code HttpHeaders}, {@code HttpServletRequest})
 * arrives as a proxy to the current one.
 */
class ResourceScopeTest {

    @Test
    void whenAResourceIsDeclaredThenItIsApplicationScoped() {
        List<String> others = WarResources.resources().stream()
                .filter(c -> !c.isInterface() && !c.isAnnotationPresent(ApplicationScoped.class))
                .map(Class::getName).toList();
        assertFalse(WarResources.resources().isEmpty());
        assertEquals(List.of(), others, "resources that are not @ApplicationScoped");
    }

    @Test
    void whenAResourceHasAFieldThenItIsInjected() {
        List<String> own = WarResources.resources().stream()
                .flatMap(c -> Arrays.stream(c.getDeclaredFields()))
                .filter(f -> !Modifier.isStatic(f.getModifiers()) && !f.isSynthetic() && !injected(f))
                .map(f -> f.getDeclaringClass().getSimpleName() + "." + f.getName()).toList();
        assertEquals(List.of(), own, "fields a shared resource would share between requests");
    }

    private static boolean injected(Field f) {
        return f.isAnnotationPresent(Inject.class) || f.isAnnotationPresent(Context.class)
                || f.isAnnotationPresent(EJB.class) || f.isAnnotationPresent(Resource.class);
    }
}
