/**
 * The administrators' identity work: users and their roles, the roles, security alerts and the audit log.
 */
package dev.atrium.identity.boundary.admin;
