/**
 * API versions: the deprecations configured in {@code atrium.api.deprecations}, the headers and 410 answers of
 * {@code VersionFilter}, and their list for the operators' console.
 */
package dev.atrium.platform.boundary.version;
