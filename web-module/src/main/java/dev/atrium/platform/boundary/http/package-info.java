/**
 * The request pipeline and the error envelope: the filters in their order ({@code FilterOrder}), request ids, HTTPS,
 * body and rate limits, idempotency, method override, field selection, request timing, and the one
 * {@code ErrorMapper} (with the servlet for the container's own errors) that turns every failure into the envelope.
 */
package dev.atrium.platform.boundary.http;
