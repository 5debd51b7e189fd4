/**
 * Sync: the backups a repository holds become Backup resources in a cluster that lacks them, so a
 * new cluster pointed at an old bucket can restore, and those deleted there (tombstoned) leave it.
 * Reads storage only; writes nothing to it.
 */
package dev.stele.operator.sync;
