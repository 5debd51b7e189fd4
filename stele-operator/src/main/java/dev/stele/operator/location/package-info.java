/**
 * {@code BackupStorageLocation}s: the reconciler that checks a location can be reached and honours
 * the lock it asks for, provisions the repositories it names, and the diagnosis that turns a
 * failure into one line. Writes to storage only the probe objects of its check.
 */
package dev.stele.operator.location;
