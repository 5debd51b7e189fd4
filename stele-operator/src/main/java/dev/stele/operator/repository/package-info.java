/**
 * {@code BackupStorageLocationRepository}s: provisioning a repository (format and key blobs),
 * opening it for the other reconcilers, scheduled maintenance, and deletion. The only package that
 * reads a repository's password.
 */
package dev.stele.operator.repository;
