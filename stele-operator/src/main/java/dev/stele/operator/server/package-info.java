/**
 * {@code BackupStorageLocationServer}s: running {@code stele server} on a repository as a
 * Deployment with a Service and its certificate, all owned by the resource. Mounts the repository's
 * Secrets into the server's pod but never reads the repository's password, and never touches the
 * repository itself.
 */
package dev.stele.operator.server;
