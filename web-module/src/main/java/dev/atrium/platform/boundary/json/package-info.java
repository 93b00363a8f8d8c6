/**
 * JSON bodies: the API's one JSON-B configuration ({@code Json}) handed to JAX-RS, and PATCH bodies read as
 * {@code Patch<T>} (the bound record plus the fields the client sent).
 */
package dev.atrium.platform.boundary.json;
