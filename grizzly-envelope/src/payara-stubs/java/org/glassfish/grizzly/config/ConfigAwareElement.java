package org.glassfish.grizzly.config;

import org.glassfish.grizzly.config.dom.NetworkListener;
import org.glassfish.hk2.api.ServiceLocator;
import org.jvnet.hk2.config.ConfigBeanProxy;

/**
 * Compile-time stand-in for Payara's grizzly-config interface (nucleus-grizzly-all, not published where this build
 * resolves from): a filter or finder named in domain.xml that implements it is handed its configuration element.
 * Only the signature matters; Payara's own interface is used at run time (not in the jar).
 */
public interface ConfigAwareElement<E extends ConfigBeanProxy> {

    void configure(ServiceLocator habitat, NetworkListener networkListener, E configuration);
}
