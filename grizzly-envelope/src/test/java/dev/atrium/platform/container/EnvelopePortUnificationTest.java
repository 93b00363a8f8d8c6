package dev.atrium.platform.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.glassfish.grizzly.config.dom.Http;
import org.glassfish.grizzly.config.dom.PortUnification;
import org.glassfish.grizzly.config.dom.Protocol;
import org.glassfish.grizzly.config.dom.ProtocolFinder;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.Filter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.http.HttpServerFilter;
import org.glassfish.grizzly.http.util.MimeHeaders;
import org.glassfish.grizzly.http2.Http2Configuration;
import org.glassfish.grizzly.http2.Http2ServerFilter;
import org.glassfish.grizzly.portunif.PUFilter;
import org.glassfish.grizzly.ssl.SSLBaseFilter;
import org.junit.jupiter.api.Test;

class EnvelopePortUnificationTest {

    /** Payara's defaults of the {@code <http>} element's HTTP/2 settings. */
    static final Map<String, String> HTTP2 = Map.of("getHttp2Enabled", "true",
            "getHttp2MaxConcurrentStreams", "100", "getHttp2InitialWindowSizeInBytes", "65535",
            "getHttp2MaxFramePayloadSizeInBytes", "16384", "getHttp2MaxHeaderListSizeInBytes", "4096",
            "getHttp2StreamsHighWaterMark", "0.5", "getHttp2CleanPercentage", "0.5",
            "getHttp2CleanFrequencyCheck", "50", "getHttp2DisableCipherCheck", "false", "getHttp2PushEnabled", "true");

    static final class Idle extends BaseFilter {
    }

    static final class Web extends BaseFilter {
    }

    @Test
    void whenTheListenersChainIsBuiltThenItHoldsTheProtocolsFiltersWithHttp2AboveTheCodecAndNoPortUnification() {
        var unification = new EnvelopePortUnification();
        unification.configure(null, null, element(HTTP2, "false"));
        FilterChain listener = listener(unification);

        assertThat(listener).extracting(Filter::getClass).map(Class::getSimpleName).containsExactly(
                "TransportFilter", "Idle", "BareErrors", "HttpServerFilter", "Http2ServerFilter", "ApplicationWrites",
                "Web");
        Http2ServerFilter http2 = (Http2ServerFilter) listener.get(4);
        assertThat(http2.getConfiguration().getMaxConcurrentStreams()).isEqualTo(100);
        assertThat(http2.getLocalMaxFramePayloadSize()).isEqualTo(16384);
    }

    @Test
    void whenTheElementTurnsHttp2OffThenTheChainHasNoHttp2() {
        var unification = new EnvelopePortUnification();
        var off = new HashMap<>(HTTP2);
        off.put("getHttp2Enabled", "false");
        unification.configure(null, null, element(off, "false"));

        assertThat(listener(unification)).extracting(Filter::getClass).map(Class::getSimpleName).containsExactly(
                "TransportFilter", "Idle", "BareErrors", "HttpServerFilter", "ApplicationWrites", "Web");
    }

    @Test
    void whenTheProtocolIsTlsThenTheChainHoldsTlsBelowTheProtocolsFiltersWithHttp2AboveTheCodec() throws Exception {
        var unification = new EnvelopePortUnification();
        unification.configure(null, null, element(HTTP2, "true"));
        SSLBaseFilter tls = TlsListenerTest.tlsFilter(SSLContext.getDefault());
        FilterChain listener = tlsListener(unification, tls);

        // the transport filter is TLS's own wrapper, as on a TLS listener without port unification
        assertThat(listener).extracting(Filter::getClass).map(Class::getSimpleName).containsExactly(
                "SSLTransportFilterWrapper", "SSLBaseFilter", "Idle", "BareErrors", "HttpServerFilter",
                "Http2ServerFilter", "ApplicationWrites", "Web");
        assertThat(listener.get(1)).isSameAs(tls);
    }

    @Test
    void whenTheTlsProtocolTurnsHttp2OffThenTheChainHasNoHttp2() throws Exception {
        var unification = new EnvelopePortUnification();
        var off = new HashMap<>(HTTP2);
        off.put("getHttp2Enabled", "false");
        unification.configure(null, null, element(off, "true"));

        FilterChain listener = tlsListener(unification, TlsListenerTest.tlsFilter(SSLContext.getDefault()));
        assertThat(listener).extracting(Filter::getClass).map(Class::getSimpleName).containsExactly(
                "SSLTransportFilterWrapper", "SSLBaseFilter", "Idle", "BareErrors", "HttpServerFilter",
                "ApplicationWrites", "Web");
    }

    @Test
    void whenTheTlsProtocolHasTwoProtocolsThenPortUnificationStaysWithItsCodecInstrumented() throws Exception {
        var unification = new EnvelopePortUnification();
        unification.configure(null, null, element(HTTP2, "true"));
        PUFilter inner = new PUFilter();
        inner.register(new EveryConnection(), inner.getPUFilterChainBuilder().add(codec()).build());
        inner.register(new EveryConnection(), inner.getPUFilterChainBuilder().add(codec()).build());
        unification.register(new EveryConnection(), unification.getPUFilterChainBuilder()
                .add(TlsListenerTest.tlsFilter(SSLContext.getDefault())).add(inner).build());
        FilterChain listener = FilterChainBuilder.stateless().add(new TransportFilter()).add(unification).build();

        assertThat(listener).extracting(Filter::getClass).map(Class::getSimpleName)
                .containsExactly("TransportFilter", "EnvelopePortUnification");
        assertThat(inner.getProtocols()).hasSize(2).allSatisfy(protocol -> assertThat(protocol.getFilterChain())
                .extracting(Filter::getClass).map(Class::getSimpleName).containsSubsequence("BareErrors",
                        "HttpServerFilter", "DeclinedUpgrades", "ApplicationWrites"));
    }

    @Test
    void whenTwoProtocolsAreRegisteredThenPortUnificationStaysAndDeclinesH2cOffers() {
        var unification = new EnvelopePortUnification();
        unification.configure(null, null, element(HTTP2, "false"));
        unification.register(new EveryConnection(), unification.getPUFilterChainBuilder()
                .add(codec()).build());
        FilterChain listener = listener(unification);

        assertThat(listener).extracting(Filter::getClass).map(Class::getSimpleName)
                .containsExactly("TransportFilter", "EnvelopePortUnification");
        assertThat(unification.getProtocols()).allSatisfy(protocol -> assertThat(protocol.getFilterChain())
                .extracting(Filter::getClass).map(Class::getSimpleName).containsSubsequence("BareErrors",
                        "HttpServerFilter", "DeclinedUpgrades", "ApplicationWrites")
                .doesNotContain("Http2ServerFilter"));
    }

    @Test
    void whenTheElementSetsHttp2ThenItsSettingsAreTaken() {
        var settings = new HashMap<>(HTTP2);
        settings.put("getHttp2MaxConcurrentStreams", "7");
        settings.put("getHttp2InitialWindowSizeInBytes", "1000");
        settings.put("getHttp2MaxHeaderListSizeInBytes", "2000");
        settings.put("getHttp2PushEnabled", "false");
        Http2Configuration configuration = Http2Settings.of(http(settings));

        assertThat(configuration.getMaxConcurrentStreams()).isEqualTo(7);
        assertThat(configuration.getInitialWindowSize()).isEqualTo(1000);
        assertThat(configuration.getMaxHeaderListSize()).isEqualTo(2000);
        assertThat(configuration.isPushEnabled()).isFalse();
        assertThat(configuration.getExecutorService()).isNull();
    }

    /**
     * The listener's chain as Payara builds it for a TLS protocol behind port unification
     * (GenericGrizzlyListener.configureSubProtocol): the protocol's TLS filter, then a port unification of its own
     * whose one protocol holds the HTTP filters.
     */
    static FilterChain tlsListener(EnvelopePortUnification unification, SSLBaseFilter tls) {
        PUFilter inner = new PUFilter();
        inner.register(new EveryConnection(), inner.getPUFilterChainBuilder()
                .add(new Idle()).add(codec()).add(new Web()).build());
        // Payara registers it with an SSLProtocolFinder, which the unwrapped chain never asks
        unification.register(new EveryConnection(), unification.getPUFilterChainBuilder().add(tls).add(inner).build());
        return FilterChainBuilder.stateless().add(new TransportFilter()).add(unification).build();
    }

    /** The codec as Payara makes it (GenericGrizzlyListener.createHttpServerCodecFilter, deprecated there too). */
    @SuppressWarnings("deprecation")
    static HttpServerFilter codec() {
        return new HttpServerFilter(true, HttpServerFilter.DEFAULT_MAX_HTTP_PACKET_HEADER_SIZE, null, null, null,
                MimeHeaders.MAX_NUM_HEADERS_DEFAULT, MimeHeaders.MAX_NUM_HEADERS_DEFAULT);
    }

    /** The listener's chain as Payara builds it: transport, then the port unification with the HTTP protocol. */
    private static FilterChain listener(EnvelopePortUnification unification) {
        unification.register(new EveryConnection(), unification.getPUFilterChainBuilder()
                .add(new Idle()).add(codec()).add(new Web()).build());
        return FilterChainBuilder.stateless().add(new TransportFilter()).add(unification).build();
    }

    static PortUnification element(Map<String, String> http2, String secure) {
        Protocol protocol = proxy(Protocol.class, Map.of("getHttp", http(http2), "getSecurityEnabled", secure));
        ProtocolFinder finder = proxy(ProtocolFinder.class,
                Map.of("getClassname", EveryConnection.class.getName(), "findProtocol", protocol));
        return proxy(PortUnification.class, Map.of("getProtocolFinder", List.of(finder)));
    }

    private static Http http(Map<String, String> settings) {
        return proxy(Http.class, Map.copyOf(settings));
    }

    private static <T> T proxy(Class<T> type, Map<String, ?> answers) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> answers.get(method.getName())));
    }
}
