package org.glassfish.grizzly.config.dom;

import org.jvnet.hk2.config.ConfigBeanProxy;

/** Compile-time stand-in for Payara's domain.xml element (not in the jar). */
public interface NetworkListener extends ConfigBeanProxy {
}
