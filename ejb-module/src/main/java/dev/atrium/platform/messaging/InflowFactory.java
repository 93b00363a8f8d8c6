package dev.atrium.platform.messaging;

import java.net.URI;
import java.util.Optional;

import javax.naming.Reference;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The broker as the message-driven beans' activations reach it ({@code connectionFactoryLookup}): Artemis's resource
 * adapter takes a looked-up factory by its URI, so this one answers with the URI it was made from (the client writes
 * an in-VM one without its parameters), and hands the naming service no way to rebuild it from a class the adapter
 * cannot see, so a lookup returns this very object.
 */
final class InflowFactory extends ActiveMQConnectionFactory {

    private static final long serialVersionUID = 1L;
    // the embedded broker may still be starting when the activations connect: they wait for it, quietly, up to 5 min
    private static final String IN_VM = "vm://0?consumerWindowSize=0&initialConnectAttempts=3000&retryInterval=100";

    private final String uri;

    private InflowFactory(String uri) {
        super(uri);
        this.uri = uri;
    }

    /**
     * The embedded broker's in-VM address, or the broker at {@code url}, which the client keeps reconnecting to as the
     * application's own client does; either way every session fetches one message at a time, so {@code maxSession}
     * is the number of messages in flight and none waits in one session's buffer while another is idle.
     */
    static InflowFactory of(Optional<String> url) {
        if (url.isEmpty()) {
            return new InflowFactory(IN_VM);
        }
        String remote = url.get();
        String with = remote + (remote.contains("?") ? "&" : "?");
        if (!remote.contains("consumerWindowSize")) {
            with += "consumerWindowSize=0&";
        }
        if (!remote.contains("reconnectAttempts")) {
            with += "reconnectAttempts=-1&";
        }
        return new InflowFactory(with.substring(0, with.length() - 1));
    }

    @Override
    public URI toURI() {
        return URI.create(uri);
    }

    @Override
    public Reference getReference() {
        return new Reference(InflowFactory.class.getName());
    }
}
