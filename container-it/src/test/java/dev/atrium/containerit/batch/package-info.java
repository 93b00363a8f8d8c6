/**
 * Jakarta Batch on Payara Micro: a chunk step that failed is restarted from its last checkpoint, so the items of the
 * chunks committed before it are neither read nor written again. The job and its artifacts are the test's own.
 */
package dev.atrium.containerit.batch;
