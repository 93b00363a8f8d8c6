/**
 * The agent sandbox: runs one agent process under isolation and limits, and nothing else. Plain Java with no Jakarta
 * EE dependency, so the server's invoke gateway and the developer CLI run agents the same way.
 *
 * <p>Owns: the {@link dev.atrium.sandbox.Executor} interface and its adapters (bubblewrap namespaces with cgroup
 * limits today; syscall interception and micro-VMs are further adapters of the same interface), detection of what
 * the machine can enforce, and safe unpacking of bundles. Leaves out: who may run what, trust levels, cards, billing
 * and records; callers decide the {@link dev.atrium.sandbox.Limits} and read the {@link dev.atrium.sandbox.RunResult}.
 */
package dev.atrium.sandbox;
