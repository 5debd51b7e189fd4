package dev.stele.server;

import dev.stele.snapshot.FileName;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotDiff;

/**
 * {@code GET /api/v1/diff/{a}/{b}}: what changed from snapshot {@code a} to {@code b}, both the
 * user's (else "no such snapshot", as for any other), streamed change by change. Unchanged subtrees
 * are not read (SnapshotDiff).
 */
final class Diff {
  private Diff() {}

  static Api.JsonBody answer(
      SnapshotBrowser browser, SnapshotCatalog.Entry a, SnapshotCatalog.Entry b) {
    return out -> {
      out.writeStartArray();
      SnapshotDiff.diff(
          browser,
          a.manifest(),
          b.manifest(),
          c -> {
            String path =
                c.path().endsWith("/") ? c.path().substring(0, c.path().length() - 1) : c.path();
            out.writeStartObject();
            out.writeStringField("kind", String.valueOf(c.kind()));
            out.writeStringField("path", FileName.display(c.path()));
            if (c.before() != null) {
              out.writePOJOField(
                  "before", ApiJson.Entry.of(new SnapshotBrowser.Entry(path, c.before()), false));
            }
            if (c.after() != null) {
              out.writePOJOField(
                  "after", ApiJson.Entry.of(new SnapshotBrowser.Entry(path, c.after()), false));
            }
            out.writeEndObject();
          });
      out.writeEndArray();
    };
  }
}
