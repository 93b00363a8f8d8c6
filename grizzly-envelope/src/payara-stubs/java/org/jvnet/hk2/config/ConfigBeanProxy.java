package org.jvnet.hk2.config;

/** Compile-time stand-in for HK2's configuration bean type; Payara's own is used at run time (not in the jar). */
public interface ConfigBeanProxy {
}
