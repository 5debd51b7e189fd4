package dev.stele.server;

import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A directory of a snapshot written as a zip to a stream, in the order and with the names of {@link
 * ArchiveWalk}, each file's content read chunk by chunk as it is written (zip64 when large, which
 * {@link ZipOutputStream} chooses itself).
 */
final class Zip {
  private Zip() {}

  /** Writes the zip of {@code dir}'s content; gives the bytes of file content it holds. */
  static long write(Repository repo, SnapshotBrowser browser, Node dir, OutputStream out)
      throws IOException {
    // Finished, not closed: the response's stream is the caller's to close.
    ZipOutputStream zip = new ZipOutputStream(out);
    long bytes =
        ArchiveWalk.walk(
            browser,
            dir,
            new ArchiveWalk.Sink() {
              @Override
              public void directory(String name, Node n) throws IOException {
                zip.putNextEntry(entry(name, n));
                zip.closeEntry();
              }

              @Override
              public long file(String name, Node n) throws IOException {
                zip.putNextEntry(entry(name, n));
                long sent = n.size() > 0 ? Download.copy(repo, n, 0, n.size() - 1, zip) : 0;
                zip.closeEntry();
                return sent;
              }
            });
    zip.finish();
    return bytes;
  }

  private static ZipEntry entry(String name, Node n) {
    ZipEntry e = new ZipEntry(name);
    e.setLastModifiedTime(FileTime.from(Instant.ofEpochSecond(0, n.mtimeNanos())));
    return e;
  }
}
