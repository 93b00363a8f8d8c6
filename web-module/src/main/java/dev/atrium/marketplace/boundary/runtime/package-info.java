/**
 * Running agents: invoke, the callers' runs and an agent's runs, an agent's secrets, the sandbox administration
 * and a caller's usage records.
 */
package dev.atrium.marketplace.boundary.runtime;
