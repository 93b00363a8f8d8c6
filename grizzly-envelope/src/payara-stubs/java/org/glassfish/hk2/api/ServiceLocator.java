package org.glassfish.hk2.api;

/** Compile-time stand-in for HK2's service locator; Payara's own is used at run time (not in the jar). */
public interface ServiceLocator {
}
