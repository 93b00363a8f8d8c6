/**
 * Trust after listing: users' security reports ({@code AgentReport}, {@code ReportReason}), incidents on record
 * ({@code AgentIncident}) and a takedown's grounds ({@code TakedownReason}). The agent's level itself
 * ({@code TrustLevel}) stays with {@code Agent} in {@code entity}, which these refer to.
 */
package dev.atrium.marketplace.entity.trust;
