/**
 * Personal data in what agents are given and log: {@code PersonalData} finds and masks e-mail addresses, phone and
 * card numbers and IBANs with linear scanners over normalised text.
 */
package dev.atrium.marketplace.control.pii;
