package dev.stele.repo;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A snapshot: the blob {@code snapshots/<sha256>} that makes it exist. Written once, after every
 * chunk and tree it names is durable and indexed.
 *
 * @param version manifest version, 1
 * @param time when the snapshot was taken
 * @param host the machine it was taken on
 * @param user the user who took it
 * @param paths the absolute source paths, as given
 * @param tags free-form labels
 * @param parent the snapshot whose unchanged files were reused, or null
 * @param tree id of the root tree chunk
 * @param expires when the snapshot may be forgotten (retention follows it), or null
 * @param stats what the snapshot holds and what it added
 * @param labels extra key/value data for callers such as the operator, may be empty
 */
public record SnapshotManifest(
    int version,
    Instant time,
    String host,
    String user,
    List<String> paths,
    List<String> tags,
    String parent,
    String tree,
    Instant expires,
    Stats stats,
    Map<String, String> labels) {
  /** The manifest version this Stele writes and reads; a reader refuses newer ones. */
  public static final int VERSION = 1;

  /**
   * Until when this snapshot's blobs must be retained: its expiry, or its time plus the
   * repository's minimum retention when it has none. The one definition backup, maintenance and the
   * retention audit share.
   */
  public java.time.Instant retainUntil(java.time.Duration minimum) {
    return expires != null ? expires : time.plus(minimum);
  }

  public SnapshotManifest {
    paths = List.copyOf(paths);
    tags = tags == null ? List.of() : List.copyOf(tags);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /** The manifest's JSON (docs/format.md §9.1). */
  public byte[] toJson() {
    return JsonWriter.object(
        out ->
            out.number("version", version)
                .instant("time", time)
                .string("host", host)
                .string("user", user)
                .strings("paths", paths)
                .strings("tags", tags)
                .string("parent", parent)
                .string("tree", tree)
                .instant("expires", expires)
                .object("stats", stats == null ? null : stats::write)
                .stringMap("labels", labels));
  }

  /**
   * The manifest {@code json} holds, the blob {@code blob}.
   *
   * @throws CorruptBlobException if it is not a manifest
   * @throws UnsupportedVersionException if a newer Stele wrote it
   */
  public static SnapshotManifest parse(String blob, byte[] json) throws IOException {
    JsonObject m = JsonObject.versioned(blob, json, VERSION);
    JsonObject stats = m.object("stats");
    return new SnapshotManifest(
        m.integer("version"),
        m.instant("time"),
        m.string("host"),
        m.string("user"),
        m.strings("paths"),
        m.strings("tags"),
        m.string("parent"),
        m.string("tree"),
        m.instant("expires"),
        stats == null ? null : Stats.read(stats),
        m.stringMap("labels"));
  }

  /**
   * Counts for one snapshot.
   *
   * @param files regular files in the snapshot
   * @param dirs directories
   * @param bytes total size of the files
   * @param filesNew files read because the parent did not have them unchanged
   * @param chunksNew chunks this snapshot stored
   * @param bytesNew plaintext bytes of those chunks
   * @param bytesStored sealed bytes those chunks take in packs
   * @param skipped entries skipped (special files, unreadable)
   * @param seconds wall time taken
   */
  public record Stats(
      long files,
      long dirs,
      long bytes,
      long filesNew,
      long chunksNew,
      long bytesNew,
      long bytesStored,
      long skipped,
      double seconds) {

    private void write(JsonWriter out) throws IOException {
      out.number("files", files)
          .number("dirs", dirs)
          .number("bytes", bytes)
          .number("filesNew", filesNew)
          .number("chunksNew", chunksNew)
          .number("bytesNew", bytesNew)
          .number("bytesStored", bytesStored)
          .number("skipped", skipped)
          .number("seconds", seconds);
    }

    private static Stats read(JsonObject s) throws CorruptBlobException {
      return new Stats(
          s.longInteger("files"),
          s.longInteger("dirs"),
          s.longInteger("bytes"),
          s.longInteger("filesNew"),
          s.longInteger("chunksNew"),
          s.longInteger("bytesNew"),
          s.longInteger("bytesStored"),
          s.longInteger("skipped"),
          s.decimal("seconds"));
    }
  }
}
