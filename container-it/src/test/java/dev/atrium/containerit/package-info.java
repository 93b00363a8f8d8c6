/**
 * In-container tests: each test class deploys a ShrinkWrap micro-deployment (only the classes it needs) on a Payara
 * Micro that Arquillian starts for it, and runs its tests inside that server. What they share lives here.
 */
package dev.atrium.containerit;
