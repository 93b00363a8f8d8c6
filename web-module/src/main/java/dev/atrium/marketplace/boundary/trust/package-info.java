/**
 * Trust after listing: an agent's trust level and its change, and users' security reports with their administration.
 */
package dev.atrium.marketplace.boundary.trust;
