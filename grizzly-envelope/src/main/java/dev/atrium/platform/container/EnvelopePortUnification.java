package dev.atrium.platform.container;

import java.util.logging.Logger;

import org.glassfish.grizzly.filterchain.Filter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.portunif.PUFilter;
import org.glassfish.grizzly.portunif.PUProtocol;

/**
 * The listener's port-unification filter (domain.xml: {@code <port-unification classname="...">}, one finder,
 * {@link EveryConnection}, leading to the ordinary HTTP protocol). Grizzly gives no other place in a configured
 * listener's chain for a filter of one's own: when the HTTP protocol's chain is registered here, {@link BareErrors}
 * goes just below the HTTP codec and {@link ApplicationWrites} just above it. Everything else in the chain stays as
 * Payara built it.
 */
public class EnvelopePortUnification extends PUFilter {

    static final String CODEC = "org.glassfish.grizzly.http.HttpServerFilter";

    private static final Logger LOG = Logger.getLogger(EnvelopePortUnification.class.getName());

    @Override
    public void register(PUProtocol protocol) {
        if (!instrument(protocol.getFilterChain())) {
            LOG.warning(() -> "No HTTP codec in the protocol registered for port unification, its refusals stay bare: "
                    + protocol.getFilterChain());
        }
        super.register(protocol);
    }

    /** Puts the two filters around the HTTP codec of the chain; false when the chain has no codec. */
    static boolean instrument(FilterChain chain) {
        for (int i = 0; i < chain.size(); i++) {
            Filter filter = chain.get(i);
            if (isCodec(filter.getClass())) {
                chain.add(i + 1, new ApplicationWrites());
                chain.add(i, new BareErrors());
                return true;
            }
        }
        return false;
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
