package dev.atrium.platform.container;

import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpPacket;
import org.glassfish.grizzly.http.HttpRequestPacket;
import org.glassfish.grizzly.http.HttpResponsePacket;

/**
 * Sits just above the HTTP codec (above Grizzly's HTTP/2 filter when the chain has one) and marks every write that
 * comes from above it (the web container, WebSocket, anything an application answers), saying whether it answers a
 * HEAD request: {@link BareErrors}, below the codec, leaves an answer to HEAD as it is, and every other marked write
 * unless it is a bare error of the web container itself. Only what the codec writes by itself, its refusals, reaches
 * it unmarked; so do the HTTP/2 filter's frames, which are no HTTP/1.1 text and pass as they are.
 */
final class ApplicationWrites extends BaseFilter {

    enum Origin {
        /** From above the codec, answering HEAD: a body would break the connection's framing. */
        HEAD,
        /** From above the codec, answering any other method. */
        ABOVE
    }

    static final Attribute<Origin> MARK = Grizzly.DEFAULT_ATTRIBUTE_BUILDER
            .createAttribute(ApplicationWrites.class.getName());

    @Override
    public NextAction handleWrite(FilterChainContext ctx) {
        MARK.set(ctx, answersHead(ctx.getMessage()) ? Origin.HEAD : Origin.ABOVE);
        return ctx.getInvokeAction();
    }

    private static boolean answersHead(Object message) {
        if (message instanceof HttpPacket packet && packet.getHttpHeader() instanceof HttpResponsePacket response) {
            HttpRequestPacket request = response.getRequest();
            // without its request nothing says it is not HEAD: left alone
            return request == null || request.isHeadRequest();
        }
        // anything else from above (a WebSocket frame, bytes already encoded) is never rewritten
        return true;
    }
}
