/**
 * Installations: installing and removing an agent, and a user's installed agents.
 */
package dev.atrium.marketplace.boundary.installations;
