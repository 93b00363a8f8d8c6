package dev.atrium.platform.container;

import org.glassfish.grizzly.config.dom.Http;
import org.glassfish.grizzly.http2.Http2Configuration;

/**
 * HTTP/2 for the listener as Payara configures it on a listener without port unification
 * ({@code GenericGrizzlyListener.configureHttp2Support}): the same settings of the protocol's {@code <http>} element.
 */
final class Http2Settings {

    private Http2Settings() {
    }

    /**
     * The configuration, or null when the element turns HTTP/2 off. No executor, as Payara's: it reads the
     * listener's worker pool before that pool exists, so a stream's request runs on the thread that read its frames.
     */
    static Http2Configuration of(Http http) {
        if (!Boolean.parseBoolean(http.getHttp2Enabled())) {
            return null;
        }
        return Http2Configuration.builder()
                .maxConcurrentStreams(Integer.parseInt(http.getHttp2MaxConcurrentStreams()))
                .initialWindowSize(Integer.parseInt(http.getHttp2InitialWindowSizeInBytes()))
                .maxFramePayloadSize(Integer.parseInt(http.getHttp2MaxFramePayloadSizeInBytes()))
                .maxHeaderListSize(Integer.parseInt(http.getHttp2MaxHeaderListSizeInBytes()))
                .streamsHighWaterMark(Float.parseFloat(http.getHttp2StreamsHighWaterMark()))
                .cleanPercentage(Float.parseFloat(http.getHttp2CleanPercentage()))
                .cleanFrequencyCheck(Integer.parseInt(http.getHttp2CleanFrequencyCheck()))
                .disableCipherCheck(Boolean.parseBoolean(http.getHttp2DisableCipherCheck()))
                .enablePush(Boolean.parseBoolean(http.getHttp2PushEnabled()))
                .build();
    }
}
