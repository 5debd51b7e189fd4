package dev.stele.server;

import dev.stele.repo.Repository;
import dev.stele.snapshot.FileName;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A directory of a snapshot written as a zip to a stream, depth first in name order: directories
 * and regular files, each file's content read chunk by chunk as it is written (zip64 when large,
 * which {@link ZipOutputStream} chooses itself). Symbolic links, devices, FIFOs and sockets have no
 * portable place in a zip and are left out. Names are as {@link FileName#display} shows them.
 */
final class Zip {
  private Zip() {}

  /** Writes the zip of {@code dir}'s content; gives the bytes of file content it holds. */
  static long write(Repository repo, SnapshotBrowser browser, Node dir, OutputStream out)
      throws IOException {
    // Finished, not closed: the response's stream is the caller's to close.
    ZipOutputStream zip = new ZipOutputStream(out);
    long bytes = add(repo, browser, dir, "", zip);
    zip.finish();
    return bytes;
  }

  private static long add(
      Repository repo, SnapshotBrowser browser, Node dir, String prefix, ZipOutputStream zip)
      throws IOException {
    long bytes = 0;
    for (Node n : browser.tree(dir).nodes()) {
      String name = prefix + FileName.display(n.name());
      if (n.isDirectory()) {
        zip.putNextEntry(entry(name + "/", n));
        zip.closeEntry();
        bytes += add(repo, browser, n, name + "/", zip);
      } else if (n.isFile()) {
        zip.putNextEntry(entry(name, n));
        if (n.size() > 0) {
          bytes += Download.copy(repo, n, 0, n.size() - 1, zip);
        }
        zip.closeEntry();
      }
    }
    return bytes;
  }

  private static ZipEntry entry(String name, Node n) {
    ZipEntry e = new ZipEntry(name);
    e.setLastModifiedTime(FileTime.from(Instant.ofEpochSecond(0, n.mtimeNanos())));
    return e;
  }
}
