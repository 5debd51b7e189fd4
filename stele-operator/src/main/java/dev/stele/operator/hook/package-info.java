/**
 * Hooks: commands run in pods' containers through the API server ({@code pods/exec}), declared by
 * pod annotations (Velero's {@code pre.hook.backup.velero.io/...} and the {@code stele.dev}
 * spellings) or by a Backup's or Restore's {@code spec.hooks}; run with a timeout, never through a
 * shell, with their output kept for the log. Depends only on {@code kube}.
 */
package dev.stele.operator.hook;
