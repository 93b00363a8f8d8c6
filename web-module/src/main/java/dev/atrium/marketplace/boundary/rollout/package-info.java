/**
 * Versions rolling out: an agent's rollout as shown, and the administrators' actions (pause, resume, promote,
 * roll back) and the evaluation run.
 */
package dev.atrium.marketplace.boundary.rollout;
