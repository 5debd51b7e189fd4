package dev.stele.operator.restore;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a restore has done so far, kept in memory by the reconciler while the node agent fills
 * volumes, and written once, as {@code restore.json} and {@code restore.log}, at the end. A process
 * that restarts during the wait has lost it: the record then says so ({@link #note}) and keeps the
 * counts the Restore's status holds.
 *
 * <p>Concurrency: used by one reconciler thread at a time (java-operator-sdk never runs two passes
 * over one resource at once).
 */
final class Outcome {
  /** A volume the node agent was asked to fill. */
  record Requested(String namespace, String pod, String volume, String snapshotID, String name) {}

  final String backupName;
  final String backupSnapshot;
  final String repository;
  final Instant expires;
  final String started;
  final List<RestoreDocument.Item> objects = new ArrayList<>();
  final List<Requested> volumes = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();
  final List<String> errors = new ArrayList<>();
  final List<String> log = new ArrayList<>();
  int restored;
  int skipped;
  String note;
  private final Clock clock;

  Outcome(
      String backupName,
      String backupSnapshot,
      String repository,
      Instant expires,
      String started,
      Clock clock) {
    this.backupName = backupName;
    this.backupSnapshot = backupSnapshot;
    this.repository = repository;
    this.expires = expires;
    this.started = started;
    this.clock = clock;
  }

  void log(String line) {
    log.add(clock.instant() + " " + line);
  }

  void warn(String warning) {
    warnings.add(warning);
    log("warning: " + warning);
  }

  void error(String error) {
    errors.add(error);
    log("error: " + error);
  }

  void item(BackedUpObject o, String restoredAs, String result, String message) {
    objects.add(
        new RestoreDocument.Item(
            o.qualifiedResource(), o.namespace(), o.name(), restoredAs, result, message));
    log(
        result
            + " "
            + o.describe()
            + (restoredAs == null ? "" : " as " + restoredAs)
            + (message == null ? "" : ": " + message));
  }

  /** At most the first five, for a status message. */
  static List<String> first(List<String> all) {
    return all.size() <= 5 ? all : all.subList(0, 5);
  }
}
