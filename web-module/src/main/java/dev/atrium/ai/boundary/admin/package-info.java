/**
 * The administrators' AI work: users with their tier and today's usage, changing a tier, and the daily usage
 * reports (listing, downloading, producing one on demand).
 */
package dev.atrium.ai.boundary.admin;
