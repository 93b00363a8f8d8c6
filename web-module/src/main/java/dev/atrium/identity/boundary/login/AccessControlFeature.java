package dev.atrium.identity.boundary.login;

import java.lang.reflect.AnnotatedElement;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.security.DenyAll;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.CallerPrincipal;
import dev.atrium.identity.control.RequiresPermission;
import dev.atrium.platform.boundary.http.FilterOrder;
import dev.atrium.platform.error.BusinessException;

/**
 * Enforces {@code @PermitAll}, {@code @RolesAllowed}, {@code @DenyAll} and {@link RequiresPermission} on resource
 * methods (method first, then class). Anything not marked {@code @PermitAll} needs an authenticated caller: secure
 * by default. {@code @RolesAllowed("**")} means any authenticated caller. Unauthenticated is 401; a missing role
 * or permission is 403, naming what is missing.
 */
@Provider
public class AccessControlFeature implements DynamicFeature {

    public static final String ANY_AUTHENTICATED = "**";

    @Override
    public void configure(ResourceInfo info, FeatureContext context) {
        var method = info.getResourceMethod();
        var type = info.getResourceClass();
        if (method.isAnnotationPresent(PermitAll.class)
                || (!method.isAnnotationPresent(RolesAllowed.class) && !method.isAnnotationPresent(DenyAll.class)
                && !method.isAnnotationPresent(RequiresPermission.class) && type.isAnnotationPresent(PermitAll.class))) {
            return;
        }
        boolean deny = method.isAnnotationPresent(DenyAll.class)
                || (type.isAnnotationPresent(DenyAll.class) && !method.isAnnotationPresent(RolesAllowed.class));
        List<String> roles = roles(method).orElse(roles(type).orElse(List.of(ANY_AUTHENTICATED)));
        List<String> permissions = permissions(method).orElse(permissions(type).orElse(List.of()));
        context.register(new AccessFilter(deny, roles, permissions), FilterOrder.AUTHORIZATION);
    }

    private static Optional<List<String>> roles(AnnotatedElement element) {
        RolesAllowed roles = element.getAnnotation(RolesAllowed.class);
        return roles == null ? Optional.empty() : Optional.of(Arrays.asList(roles.value()));
    }

    private static Optional<List<String>> permissions(AnnotatedElement element) {
        RequiresPermission p = element.getAnnotation(RequiresPermission.class);
        return p == null ? Optional.empty() : Optional.of(Arrays.asList(p.value()));
    }

    static final class AccessFilter implements ContainerRequestFilter {
        private final boolean deny;
        private final List<String> roles;
        private final List<String> permissions;

        AccessFilter(boolean deny, List<String> roles, List<String> permissions) {
            this.deny = deny;
            this.roles = List.copyOf(roles);
            this.permissions = List.copyOf(permissions);
        }

        @Override
        public void filter(ContainerRequestContext request) {
            if (!(request.getSecurityContext().getUserPrincipal() instanceof CallerPrincipal principal)) {
                throw BusinessException.unauthenticated("Authentication required");
            }
            if (deny) {
                throw BusinessException.forbidden("Not allowed");
            }
            Caller caller = principal.caller();
            if (!roles.contains(ANY_AUTHENTICATED) && roles.stream().noneMatch(caller.groups()::contains)) {
                throw BusinessException.forbidden("Requires role " + String.join(" or ", roles));
            }
            for (String permission : permissions) {
                if (!caller.has(permission)) {
                    throw BusinessException.forbidden("Missing permission: " + permission);
                }
            }
        }
    }
}
