/**
 * The ledger in a JTA transaction on Payara Micro and PostgreSQL: a batch that fails part-way leaves nothing behind,
 * neither its JDBC-batched entries and lines nor the holds and balances it touched.
 */
package dev.atrium.containerit.billing;
