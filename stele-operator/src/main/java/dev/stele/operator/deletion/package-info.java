/**
 * The end of a backup: a DeleteBackupRequest (made by a person, or by expiry once a Backup's ttl
 * has passed) forgets the backup's snapshots with tombstones and removes its resources. Never
 * deletes or rewrites a stored object; maintenance reclaims the data once retention allows.
 */
package dev.stele.operator.deletion;
