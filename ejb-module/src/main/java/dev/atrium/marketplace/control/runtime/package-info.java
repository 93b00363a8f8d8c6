/**
 * Running agents: {@code InvokeGateway} (admission, price, free tier, input, the run, its usage record), the sandbox
 * slots and limits, bundles unpacked for runs, dependency tokens, and the callers' run records ({@code RunService}).
 */
package dev.atrium.marketplace.control.runtime;
