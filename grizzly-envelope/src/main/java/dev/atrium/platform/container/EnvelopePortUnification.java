package dev.atrium.platform.container;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

import org.glassfish.grizzly.config.ConfigAwareElement;
import org.glassfish.grizzly.config.dom.NetworkListener;
import org.glassfish.grizzly.config.dom.PortUnification;
import org.glassfish.grizzly.config.dom.Protocol;
import org.glassfish.grizzly.config.dom.ProtocolFinder;
import org.glassfish.grizzly.filterchain.Filter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.http2.Http2Configuration;
import org.glassfish.grizzly.http2.Http2ServerFilter;
import org.glassfish.grizzly.portunif.PUFilter;
import org.glassfish.grizzly.portunif.PUProtocol;
import org.glassfish.grizzly.ssl.SSLBaseFilter;
import org.glassfish.hk2.api.ServiceLocator;

/**
 * The listener's port-unification filter (domain.xml: {@code <port-unification classname="...">}, one finder,
 * {@link EveryConnection}, leading to the ordinary HTTP protocol): Grizzly gives no other place in a configured
 * listener's chain for a filter of one's own. When the HTTP protocol's chain is registered here, {@link BareErrors}
 * goes just below the HTTP codec and {@link ApplicationWrites} just above it.
 * <p>
 * Port unification itself is not kept: once the listener's chain is built, this filter puts the protocol's filters
 * in its own place, so the chain is the one Payara builds without port unification plus those two. Payara leaves
 * HTTP/2 out of a protocol behind port unification (Grizzly's HTTP/2 writes its frames through a chain of its own,
 * which port unification's back channel cannot carry), and a client's {@code Upgrade: h2c} offer with a body would then
 * never be answered: the codec takes the body for the upgraded protocol's bytes and no HTTP/2 filter gives it back. So
 * the HTTP/2 filter goes in as Payara puts it in a listener without port unification, with the same settings.
 */
public class EnvelopePortUnification extends PUFilter implements ConfigAwareElement<PortUnification> {

    static final String CODEC = "org.glassfish.grizzly.http.HttpServerFilter";

    private static final Logger LOG = Logger.getLogger(EnvelopePortUnification.class.getName());

    /** HTTP/2 of the protocol {@link EveryConnection} leads to; null when its element turns it off or it is TLS. */
    private Http2Configuration http2;

    @Override
    public void configure(ServiceLocator habitat, NetworkListener networkListener, PortUnification element) {
        http2 = null;
        for (ProtocolFinder finder : element.getProtocolFinder()) {
            Protocol protocol = EveryConnection.class.getName().equals(finder.getClassname())
                    ? finder.findProtocol() : null;
            // over TLS HTTP/2 needs ALPN on the TLS filter, which this listener does not have
            if (protocol != null && protocol.getHttp() != null
                    && !Boolean.parseBoolean(protocol.getSecurityEnabled())) {
                http2 = Http2Settings.of(protocol.getHttp());
            }
        }
    }

    Http2Configuration http2() {
        return http2;
    }

    @Override
    public void register(PUProtocol protocol) {
        if (!instrument(protocol.getFilterChain())) {
            LOG.warning(() -> "No HTTP codec in the protocol registered for port unification, its refusals stay bare: "
                    + protocol.getFilterChain());
        }
        super.register(protocol);
    }

    @Override
    public void onAdded(FilterChain filterChain) {
        super.onAdded(filterChain);
        if (!unwrap(filterChain)) {
            LOG.warning(() -> "The listener's chain keeps port unification, without HTTP/2 (h2c offers declined): "
                    + filterChain);
            for (PUProtocol protocol : getProtocols()) {
                declineUpgrades(protocol.getFilterChain());
            }
        }
    }

    /** Puts {@link DeclinedUpgrades} just above the chain's HTTP codec, if it has one. */
    static void declineUpgrades(FilterChain chain) {
        int codec = indexOfCodec(chain);
        if (codec >= 0) {
            chain.add(codec + 1, new DeclinedUpgrades());
        }
    }

    /**
     * Puts the one registered protocol's filters (after its back channel) in this filter's place in the listener's
     * chain, with the HTTP/2 filter just above the codec when {@link #http2()} is set; false, changing nothing, for
     * any other shape (several protocols, TLS, no codec).
     */
    boolean unwrap(FilterChain listenerChain) {
        int at = listenerChain.indexOf(this);
        if (at < 0 || getProtocols().size() != 1) {
            return false;
        }
        FilterChain protocol = getProtocols().iterator().next().getFilterChain();
        if (protocol.isEmpty() || protocol.get(0) != getBackChannelFilter()) {
            return false;
        }
        List<Filter> filters = new ArrayList<>(protocol.subList(1, protocol.size()));
        int codec = indexOfCodec(filters);
        if (codec < 0 || filters.stream().anyMatch(SSLBaseFilter.class::isInstance)) {
            return false;
        }
        if (http2 != null) {
            Http2ServerFilter http2Filter = new Http2ServerFilter(http2);
            http2Filter.setLocalMaxFramePayloadSize(http2.getMaxFramePayloadSize());
            filters.add(codec + 1, http2Filter);
        }
        listenerChain.remove(at);
        listenerChain.addAll(at, filters);
        return true;
    }

    /** Puts the two filters around the HTTP codec of the chain; false when the chain has no codec. */
    static boolean instrument(FilterChain chain) {
        int codec = indexOfCodec(chain);
        if (codec < 0) {
            return false;
        }
        chain.add(codec + 1, new ApplicationWrites());
        chain.add(codec, new BareErrors());
        return true;
    }

    private static int indexOfCodec(List<Filter> filters) {
        for (int i = 0; i < filters.size(); i++) {
            if (isCodec(filters.get(i).getClass())) {
                return i;
            }
        }
        return -1;
    }

    /** Grizzly's HTTP server codec, or Payara's subclass of it. */
    private static boolean isCodec(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(CODEC)) {
                return true;
            }
        }
        return false;
    }
}
