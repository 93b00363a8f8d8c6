package dev.atrium.platform.container;

import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.FilterChainEvent;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpEvents;
import org.glassfish.grizzly.http.HttpHeader;

/**
 * Just above the HTTP codec of a chain that has no HTTP/2 filter (port unification kept, see
 * {@link EnvelopePortUnification}): declines a client's {@code Upgrade: h2c} offer, so the request and its body are
 * read as HTTP/1.1 and answered so, as RFC 9110 lets a server do. Without it the codec takes everything after the
 * offer's header for the upgraded protocol's bytes, and a request with a body is never answered; Grizzly's HTTP/2
 * filter, when present, handles the same event first.
 */
final class DeclinedUpgrades extends BaseFilter {

    @Override
    public NextAction handleEvent(FilterChainContext ctx, FilterChainEvent event) {
        if (event.type() == HttpEvents.IncomingHttpUpgradeEvent.TYPE) {
            HttpHeader header = ((HttpEvents.IncomingHttpUpgradeEvent) event).getHttpHeader();
            if (header.isRequest() && "h2c".equalsIgnoreCase(header.getUpgrade())) {
                header.setIgnoreContentModifiers(false);
                return ctx.getStopAction();
            }
        }
        return ctx.getInvokeAction();
    }
}
