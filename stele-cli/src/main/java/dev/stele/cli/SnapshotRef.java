package dev.stele.cli;

import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code SNAPSHOT[:PATH]} as given on the command line: an id, a unique prefix of one, or {@code
 * latest}, then optionally a path inside the snapshot (absolute, as the source was).
 */
record SnapshotRef(String snapshot, String path) {
  static SnapshotRef parse(String text, boolean pathRequired) {
    int colon = text.indexOf(':');
    String snapshot = colon < 0 ? text : text.substring(0, colon);
    String path = colon < 0 ? "/" : text.substring(colon + 1);
    if (snapshot.isEmpty()) {
      throw CliException.usage("no snapshot in '" + text + "' (expected SNAPSHOT:PATH)");
    }
    if (pathRequired && (colon < 0 || path.isEmpty())) {
      throw CliException.usage("no path in '" + text + "' (expected SNAPSHOT:PATH)");
    }
    return new SnapshotRef(snapshot, path.isEmpty() ? "/" : path);
  }

  /** A snapshot as JSON shows it. */
  record Json(
      String id,
      String shortId,
      Instant time,
      String host,
      String user,
      List<String> paths,
      List<String> tags,
      String parent,
      String tree,
      Instant expires,
      SnapshotManifest.Stats stats,
      Map<String, String> labels) {

    static Json of(SnapshotCatalog.Entry e) {
      SnapshotManifest m = e.manifest();
      return new Json(
          e.id().hex(),
          e.id().shortHex(),
          m.time(),
          m.host(),
          m.user(),
          Format.paths(m.paths()),
          m.tags(),
          m.parent(),
          m.tree(),
          m.expires(),
          m.stats(),
          m.labels());
    }
  }
}
