package org.glassfish.grizzly.config.dom;

import org.jvnet.hk2.config.ConfigBeanProxy;

/**
 * Compile-time stand-in for Payara's domain.xml element, the HTTP/2 settings only, which Payara's
 * GenericGrizzlyListener.configureHttp2Support reads (not in the jar).
 */
public interface Http extends ConfigBeanProxy {

    String getHttp2Enabled();

    String getHttp2MaxConcurrentStreams();

    String getHttp2InitialWindowSizeInBytes();

    String getHttp2MaxFramePayloadSizeInBytes();

    String getHttp2MaxHeaderListSizeInBytes();

    String getHttp2StreamsHighWaterMark();

    String getHttp2CleanPercentage();

    String getHttp2CleanFrequencyCheck();

    String getHttp2DisableCipherCheck();

    String getHttp2PushEnabled();
}
