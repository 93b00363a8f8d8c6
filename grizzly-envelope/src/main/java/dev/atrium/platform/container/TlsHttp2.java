package dev.atrium.platform.container;

import java.lang.reflect.Constructor;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.net.ssl.SSLEngine;

import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Transport;
import org.glassfish.grizzly.http2.AlpnSupport;
import org.glassfish.grizzly.http2.Http2ServerFilter;
import org.glassfish.grizzly.npn.AlpnServerNegotiator;
import org.glassfish.grizzly.ssl.SSLBaseFilter;

/**
 * HTTP/2 over TLS offered through ALPN on the listener's TLS filter, as Grizzly's {@code Http2AddOn} does when Payara
 * builds a TLS listener without port unification: ALPN's handshake listener on the TLS filter, and Grizzly's own
 * negotiator (which opens the HTTP/2 session of a connection that chose {@code h2}) for the listener's transport.
 * <p>
 * The add-on registers that negotiator before the listener starts; a filter only learns its transport from a
 * connection. So this listener registers it at the first handshake, and also sets it on that handshake's engine itself:
 * the TLS filter's handshake listeners run in no fixed order, and ALPN's own may have looked for a negotiator first.
 */
final class TlsHttp2 implements SSLBaseFilter.HandshakeListener {

    private static final Logger LOG = Logger.getLogger(TlsHttp2.class.getName());

    static final String NEGOTIATOR = "org.glassfish.grizzly.http2.AlpnServerNegotiatorImpl";

    private final AlpnServerNegotiator negotiator;
    private volatile Transport registered;

    private TlsHttp2(AlpnServerNegotiator negotiator) {
        this.negotiator = negotiator;
    }

    /**
     * Offers {@code h2} on the TLS filter for the HTTP/2 filter; false, changing nothing, when the runtime has no ALPN
     * or its negotiator cannot be made (then the listener speaks HTTP/1.1 over TLS, as Grizzly's add-on leaves it).
     */
    static boolean offer(SSLBaseFilter tls, Http2ServerFilter http2) {
        if (!AlpnSupport.isEnabled()) {
            LOG.warning("TLS ALPN is not available: no HTTP/2 over TLS on the envelope's listener");
            return false;
        }
        AlpnServerNegotiator negotiator = negotiator(http2);
        if (negotiator == null) {
            return false;
        }
        tls.addHandshakeListener(new TlsHttp2(negotiator));
        AlpnSupport.getInstance().configure(tls);
        return true;
    }

    /**
     * Grizzly's negotiator for the HTTP/2 filter. Its class is package-private (only the add-on makes one), and what
     * it does on choosing {@code h2} (the connection's HTTP/2 state) is too; so it is made by reflection.
     */
    static AlpnServerNegotiator negotiator(Http2ServerFilter http2) {
        try {
            Constructor<?> constructor = Class.forName(NEGOTIATOR, true, Http2ServerFilter.class.getClassLoader())
                    .getDeclaredConstructor(Http2ServerFilter.class);
            constructor.setAccessible(true);
            return (AlpnServerNegotiator) constructor.newInstance(http2);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "Grizzly's ALPN negotiator cannot be made: no HTTP/2 over TLS on the envelope's"
                    + " listener", e);
            return null;
        }
    }

    @Override
    public void onInit(Connection<?> connection, SSLEngine sslEngine) {
        if (sslEngine.getUseClientMode()) {
            return;
        }
        Transport transport = connection.getTransport();
        if (registered != transport) {
            // ALPN's listener finds it there when the handshake starts, and ties the engine to its connection
            AlpnSupport.getInstance().setServerSideNegotiator(transport, negotiator);
            registered = transport;
        }
        sslEngine.setHandshakeApplicationProtocolSelector(negotiator);
    }

    @Override
    public void onStart(Connection<?> connection) {
        // ALPN's own listener does the rest
    }

    @Override
    public void onComplete(Connection<?> connection) {
        // nothing to do
    }

    @Override
    public void onFailure(Connection<?> connection, Throwable t) {
        // nothing to do
    }
}
