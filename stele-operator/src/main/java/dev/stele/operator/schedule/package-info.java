/**
 * Schedules: a cron expression turned into Backups, one per time it names, however long the
 * operator was away. Creates Backup resources only; never touches storage.
 */
package dev.stele.operator.schedule;
