package dev.atrium.platform.boundary.http;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;

import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Times every JAX-RS request into {@value #METRIC} (a MicroProfile timer: count, sum, maximum and quantiles of the
 * seconds) per HTTP method, route template and status. The route is the matched resource's {@code @Path} template
 * ({@code /v1/agents/{ref}/invoke}), never the raw path, so the series stay as few as the API's operations; a request
 * that matched none is {@code unmatched}. Outermost of the filters, so what the others refuse (429, 401) is timed
 * too. Servlets and WebSocket endpoints are not JAX-RS and are not timed here.
 */
@Provider
@ApplicationScoped
@PreMatching
@Priority(FilterOrder.REQUEST_METRICS)
public class RequestMetricsFilter implements ContainerRequestFilter, ContainerResponseFilter {

    public static final String METRIC = "atrium_http_request_duration";
    static final String UNMATCHED = "unmatched";
    /** Any other method a client makes up is {@code OTHER}: a label never takes a value the client chooses. */
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    private static final String STARTED = RequestMetricsFilter.class.getName() + ".started";

    @Inject
    MetricRegistry metrics;

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(STARTED, System.nanoTime());
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(STARTED) instanceof Long started)) {
            return;
        }
        String route = route(resource.getResourceClass(), resource.getResourceMethod());
        metrics.timer(METRIC, new Tag("method", METHODS.contains(request.getMethod()) ? request.getMethod() : "OTHER"), new Tag("route", route),
                new Tag("status", Integer.toString(response.getStatus())))
                .update(Duration.ofNanos(System.nanoTime() - started));
    }

    /** The template of the resource method's path: the class's {@code @Path} then the method's. */
    static String route(Class<?> type, Method method) {
        if (type == null || method == null) {
            return UNMATCHED;
        }
        var template = new StringBuilder();
        append(template, type.getAnnotation(Path.class));
        append(template, method.getAnnotation(Path.class));
        return template.isEmpty() ? "/" : template.toString();
    }

    private static void append(StringBuilder template, Path path) {
        if (path == null) {
            return;
        }
        String value = withoutPatterns(path.value());
        for (String part : value.split("/")) {
            if (!part.isEmpty()) {
                template.append('/').append(part);
            }
        }
    }

    /** {@code {id: [0-9]{1,9}}} as {@code {id}}: the parameter's name is the route, its pattern only noise. */
    static String withoutPatterns(String path) {
        var plain = new StringBuilder();
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c != '{') {
                plain.append(c);
                i++;
                continue;
            }
            int depth = 0;
            int end = i;
            while (end < path.length()) {
                char e = path.charAt(end);
                depth += e == '{' ? 1 : e == '}' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
                end++;
            }
            String parameter = path.substring(i + 1, Math.min(end, path.length()));
            int colon = parameter.indexOf(':');
            plain.append('{').append((colon < 0 ? parameter : parameter.substring(0, colon)).trim()).append('}');
            i = end + 1;
        }
        return plain.toString();
    }
}
