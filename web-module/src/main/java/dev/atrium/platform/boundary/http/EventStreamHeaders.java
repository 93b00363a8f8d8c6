package dev.atrium.platform.boundary.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;

/**
 * Server-sent event streams must reach the client event by event: no cache, and a hint to reverse proxies (nginx's
 * {@code X-Accel-Buffering}) not to buffer them either.
 */
@Provider
public class EventStreamHeaders implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        MediaType type = response.getMediaType();
        if (type != null && type.isCompatible(MediaType.SERVER_SENT_EVENTS_TYPE)) {
            response.getHeaders().putSingle("Cache-Control", "no-cache");
            response.getHeaders().putSingle("X-Accel-Buffering", "no");
        }
    }
}
