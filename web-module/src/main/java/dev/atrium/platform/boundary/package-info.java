/**
 * The HTTP side of the platform's conventions, for every context's resources: list envelopes and list requests,
 * request fields, the client's address, plain HTML pages, the JAX-RS application. Beneath it: {@code http} (the
 * request pipeline and the error envelope), {@code json}, {@code version}, {@code operations}, {@code openapi}.
 */
package dev.atrium.platform.boundary;
