/**
 * {@code Backup}s: collecting a backup's API objects, asking the node agent for its pod volumes,
 * and writing it to its repository as snapshots, each with a {@code backup.json} record ({@link
 * dev.stele.operator.backup.BackupDocument}) that restore, sync and deletion read back.
 */
package dev.stele.operator.backup;
