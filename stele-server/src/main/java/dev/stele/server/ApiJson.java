package dev.stele.server;

import dev.stele.k8s.api.SteleApi;
import dev.stele.repo.Id;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileName;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The JSON shapes of the API's answers (docs/server.md), as Jackson writes these records. */
final class ApiJson {
  private ApiJson() {}

  /**
   * A snapshot as the API lists it: the operator's labels picked out for a page, then the rest of
   * the manifest, so that a client shows a snapshot as it would read from the repository.
   */
  record Snapshot(
      String id,
      String time,
      String host,
      List<String> paths,
      List<String> tags,
      @Nullable String backup,
      @Nullable String namespace,
      @Nullable String pod,
      @Nullable String volume,
      Map<String, String> labels,
      @Nullable String user,
      @Nullable String parent,
      String tree,
      @Nullable String expires,
      SnapshotManifest.@Nullable Stats stats) {
    static Snapshot of(SnapshotCatalog.Entry e) {
      SnapshotManifest m = e.manifest();
      Map<String, String> l = m.labels();
      return new Snapshot(
          e.id().hex(),
          m.time().toString(),
          m.host(),
          m.paths(),
          m.tags(),
          l.get(SteleApi.BACKUP_NAME_LABEL),
          l.get(SteleApi.POD_NAMESPACE_LABEL),
          l.get(SteleApi.POD_NAME_LABEL),
          l.get(SteleApi.VOLUME_LABEL),
          l,
          m.user(),
          m.parent(),
          m.tree(),
          m.expires() == null ? null : m.expires().toString(),
          m.stats());
    }
  }

  /** An entry of a directory, as ls and stat give it; names in {@link FileName#display} form. */
  record Entry(
      String name,
      String path,
      String type,
      String mode,
      int uid,
      int gid,
      long size,
      String mtime,
      @Nullable String target,
      @Nullable String tree,
      @Nullable List<String> chunks) {
    static Entry of(SnapshotBrowser.Entry e, boolean withChunks) {
      Node n = e.node();
      return new Entry(
          FileName.display(n.name()),
          FileName.display(e.path()),
          n.kind().name().toLowerCase(Locale.ROOT),
          String.format("%04o", n.mode()),
          n.uid(),
          n.gid(),
          n.size(),
          Instant.ofEpochSecond(0, n.mtimeNanos()).toString(),
          n.target() == null ? null : FileName.display(n.target()),
          n.subtree() == null ? null : n.subtree().hex(),
          withChunks && n.isFile() ? n.chunks().stream().map(Id::hex).toList() : null);
    }
  }
}
