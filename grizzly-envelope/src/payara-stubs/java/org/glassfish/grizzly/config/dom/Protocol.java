package org.glassfish.grizzly.config.dom;

import org.jvnet.hk2.config.ConfigBeanProxy;

/** Compile-time stand-in for Payara's domain.xml element, the methods used only (not in the jar). */
public interface Protocol extends ConfigBeanProxy {

    Http getHttp();

    String getSecurityEnabled();
}
