/**
 * Trust after listing: {@code TrustService} (levels, promotion by {@code PromotionRule}, incidents) and users'
 * security reports ({@code ReportService}).
 */
package dev.atrium.marketplace.control.trust;
