/**
 * Getting an agent listed: {@code SubmissionService} (bundle and card checked, then the pre-listing checks), the card
 * schema ({@code CardValidation}), dependencies, human review and takedown ({@code ReviewService}), and an
 * administrator's re-scan ({@code RescanService}).
 */
package dev.atrium.marketplace.control.submission;
