/**
 * Semantic search and recommendation as the API offers them, and the administrators' reconciliation of the index.
 */
package dev.atrium.marketplace.boundary.search;
