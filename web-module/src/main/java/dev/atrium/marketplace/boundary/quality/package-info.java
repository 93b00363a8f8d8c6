/**
 * An agent's quality figures ({@code AgentQualityResource}).
 */
package dev.atrium.marketplace.boundary.quality;
