/**
 * The Java SDK of the Atrium marketplace, for applications that use agents: {@link dev.atrium.sdk.AtriumClient}
 * searches, recommends and invokes over HTTP with an API key (JDK {@code HttpClient}, Jackson), with typed errors
 * and bounded retries; {@link dev.atrium.sdk.Step} composes agents (pipeline, parallel, branch, fallback).
 * It leaves out publishing and authoring, which are the {@code agent} CLI's, and anything that needs a login other
 * than an API key.
 */
package dev.atrium.sdk;
