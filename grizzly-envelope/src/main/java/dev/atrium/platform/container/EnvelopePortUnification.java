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
 * <p>
 * The HTTPS listener goes through it the same way: its TLS filter stays first, the two filters sit above it (they see
 * the plaintext HTTP/1.1), and HTTP/2 is offered over ALPN as on a TLS listener without port unification.
 */
public class EnvelopePortUnification extends PUFilter implements ConfigAwareElement<PortUnification> {

    static final String CODEC = "org.glassfish.grizzly.http.HttpServerFilter";

    private static final Logger LOG = Logger.getLogger(EnvelopePortUnification.class.getName());

    /** HTTP/2 of the protocol {@link EveryConnection} leads to; null when its element turns it off. */
    private Http2Configuration http2;

    @Override
    public void configure(ServiceLocator habitat, NetworkListener networkListener, PortUnification element) {
        http2 = null;
        for (ProtocolFinder finder : element.getProtocolFinder()) {
            Protocol protocol = EveryConnection.class.getName().equals(finder.getClassname())
                    ? finder.findProtocol() : null;
            if (protocol != null && protocol.getHttp() != null) {
                http2 = Http2Settings.of(protocol.getHttp());
            }
        }
    }

    Http2Configuration http2() {
        return http2;
    }

    @Override
    public void register(PUProtocol protocol) {
        if (!instrumentAll(protocol.getFilterChain())) {
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
                for (FilterChain chain : codecChains(protocol.getFilterChain())) {
                    declineUpgrades(chain);
                }
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
     * any other shape (several protocols, no codec). A TLS protocol comes as Payara builds one behind port unification
     * (its TLS filter, then a port unification of its own over the HTTP protocol's filters): it becomes the TLS filter
     * followed by the HTTP protocol's filters, as on a TLS listener without port unification, and HTTP/2 is offered
     * over ALPN ({@link TlsHttp2}).
     */
    boolean unwrap(FilterChain listenerChain) {
        int at = listenerChain.indexOf(this);
        if (at < 0) {
            return false;
        }
        List<Filter> filters = protocolFilters(this);
        SSLBaseFilter tls = null;
        if (filters != null && filters.size() == 2 && filters.get(0) instanceof SSLBaseFilter ssl
                && filters.get(1) instanceof PUFilter inner) {
            List<Filter> http = protocolFilters(inner);
            if (http == null) {
                return false;
            }
            tls = ssl;
            filters = new ArrayList<>(http);
        }
        if (filters == null || filters.stream().anyMatch(f -> f instanceof SSLBaseFilter || f instanceof PUFilter)) {
            return false;
        }
        int codec = indexOfCodec(filters);
        if (codec < 0) {
            return false;
        }
        if (http2 != null) {
            Http2ServerFilter http2Filter = new Http2ServerFilter(http2);
            http2Filter.setLocalMaxFramePayloadSize(http2.getMaxFramePayloadSize());
            if (tls == null || TlsHttp2.offer(tls, http2Filter)) {
                filters.add(codec + 1, http2Filter);
            }
        }
        if (tls != null) {
            filters.add(0, tls);
        }
        listenerChain.remove(at);
        listenerChain.addAll(at, filters);
        return true;
    }

    /** The filters of a port unification's one protocol after its back channel; null for any other shape. */
    private static List<Filter> protocolFilters(PUFilter unification) {
        if (unification.getProtocols().size() != 1) {
            return null;
        }
        FilterChain protocol = unification.getProtocols().iterator().next().getFilterChain();
        if (protocol.isEmpty() || protocol.get(0) != unification.getBackChannelFilter()) {
            return null;
        }
        return new ArrayList<>(protocol.subList(1, protocol.size()));
    }

    /**
     * The chains with an HTTP codec in a protocol's chain: itself, or those of the port unifications in it (a TLS
     * protocol behind port unification has its HTTP filters in a port unification of their own, below TLS).
     */
    static List<FilterChain> codecChains(FilterChain chain) {
        List<FilterChain> chains = new ArrayList<>();
        if (indexOfCodec(chain) >= 0) {
            chains.add(chain);
            return chains;
        }
        for (Filter filter : chain) {
            if (filter instanceof PUFilter unification) {
                for (PUProtocol protocol : unification.getProtocols()) {
                    chains.addAll(codecChains(protocol.getFilterChain()));
                }
            }
        }
        return chains;
    }

    /** {@link #instrument} on every chain with a codec in a protocol's chain; false when there is none. */
    static boolean instrumentAll(FilterChain chain) {
        List<FilterChain> chains = codecChains(chain);
        chains.forEach(EnvelopePortUnification::instrument);
        return !chains.isEmpty();
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
