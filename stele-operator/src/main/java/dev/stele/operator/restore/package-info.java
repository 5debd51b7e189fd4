/**
 * Restores a Backup: the {@code Restore} reconciler recreates the backup's API objects in
 * dependency order, stripped of what the server sets and remapped into new namespaces, asks the
 * node agent to fill restored pods' volumes ({@code PodVolumeRestore}), and writes the restore's
 * results to the repository once, at the end, as a snapshot of its own.
 *
 * <p>Reads backups only through the contract of {@link dev.stele.operator.backup.BackupDocument}
 * (the backup's snapshot tree); depends on {@code repository} and {@code kube} for repositories,
 * events and settings, never on the backup reconciler's internals.
 */
package dev.stele.operator.restore;
