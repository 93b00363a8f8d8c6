/**
 * Getting an agent listed: the multipart submission (parts, upload limit filter, accepted and rejected answers),
 * the pre-listing checks as shown, review, approval, rejection, takedown and reinstatement, and an administrator's
 * re-scan.
 */
package dev.atrium.marketplace.boundary.submission;
