package dev.stele.server;

import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotReceive;
import dev.stele.snapshot.UploadStream;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code POST /api/v1/snapshots}: a snapshot created by a client without the key, for a user whose
 * Append rule contains it (docs/server.md, "Creating snapshots"). The header is checked before any
 * content is read: the snapshot it describes must lie inside one of the user's Append rules (every
 * path under its prefixes), and the parent it names must be one the user reads, of the same host
 * and paths. Then {@link SnapshotReceive} stores it with the direct backup's engine.
 */
final class Create {
  /**
   * What is read of a refused upload's body, so that the refusal reaches the client: closed on
   * unread data, the connection would be reset under the answer.
   */
  private static final long DRAIN = 64L << 20;

  private Create() {}

  static SnapshotReceive.Received run(
      Repository repo,
      AccessRules rules,
      String user,
      List<SnapshotCatalog.Entry> readable,
      InputStream body)
      throws Refusal, IOException {
    try {
      return receive(repo, rules, user, readable, body);
    } catch (Refusal e) {
      byte[] discard = new byte[64 << 10];
      for (long left = DRAIN; left > 0; ) {
        int n = body.read(discard);
        if (n < 0) {
          break;
        }
        left -= n;
      }
      throw e;
    }
  }

  private static SnapshotReceive.Received receive(
      Repository repo,
      AccessRules rules,
      String user,
      List<SnapshotCatalog.Entry> readable,
      InputStream body)
      throws Refusal, IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(body, 64 << 10));
    UploadStream.Header header;
    try {
      header = UploadStream.readHeader(in);
    } catch (UploadStream.Malformed e) {
      throw new Refusal(400, String.valueOf(e.getMessage()));
    }
    checkPaths(header.paths());
    SnapshotManifest claimed =
        new SnapshotManifest(
            SnapshotManifest.VERSION,
            repo.clock().instant(),
            header.host(),
            header.user(),
            header.paths(),
            header.tags(),
            header.parent(),
            "",
            header.expires(),
            null,
            header.labels());
    if (!rules.mayAppend(user, claimed)) {
      throw new Refusal(
          403,
          "no Append rule of yours holds a snapshot of host "
              + header.host()
              + ", paths "
              + header.paths()
              + (header.tags().isEmpty() ? "" : ", tags " + header.tags())
              + (header.labels().isEmpty() ? "" : ", labels " + header.labels()));
    }
    SnapshotCatalog.Entry parent = parent(header, readable);
    try {
      return new SnapshotReceive(repo).receive(header, parent, in);
    } catch (UploadStream.Malformed e) {
      throw new Refusal(400, String.valueOf(e.getMessage()));
    }
  }

  /** Sources as a snapshot records them: absolute, normalized, sorted, without duplicates. */
  private static void checkPaths(List<String> paths) throws Refusal {
    if (paths.isEmpty()) {
      throw new Refusal(400, "an upload names no paths");
    }
    for (String p : paths) {
      if (!p.startsWith("/") || !Path.of(p).normalize().toString().equals(p)) {
        throw new Refusal(400, "upload path " + p + " is not absolute and normalized");
      }
    }
    if (!paths.stream().distinct().sorted().toList().equals(paths)) {
      throw new Refusal(400, "upload paths are not sorted and distinct");
    }
  }

  private static SnapshotCatalog.@Nullable Entry parent(
      UploadStream.Header header, List<SnapshotCatalog.Entry> readable) throws Refusal {
    if (header.parent() == null) {
      return null;
    }
    for (SnapshotCatalog.Entry e : readable) {
      if (e.id().hex().equals(header.parent())
          && e.manifest().host().equals(header.host())
          && e.manifest().paths().equals(header.paths())) {
        return e;
      }
    }
    throw new Refusal(
        400, "parent " + header.parent() + " is no snapshot of yours of the same host and paths");
  }
}
