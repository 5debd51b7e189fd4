package dev.stele.server;

import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/** The forms a directory is downloaded in, each an action of the API named as its constant. */
enum Archive {
  ZIP("application/zip", ".zip"),
  TAR("application/x-tar", ".tar"),
  TGZ("application/gzip", ".tar.gz");

  final String type;
  final String extension;

  Archive(String type, String extension) {
    this.type = type;
    this.extension = extension;
  }

  /** Writes {@code dir}'s content in this form; finished, not closed. Gives the content bytes. */
  long write(Repository repo, SnapshotBrowser browser, Node dir, OutputStream out)
      throws IOException {
    return switch (this) {
      case ZIP -> Zip.write(repo, browser, dir, out);
      case TAR -> Tar.write(repo, browser, dir, out);
      case TGZ -> {
        GZIPOutputStream gzip = new GZIPOutputStream(out, 64 << 10);
        long bytes = Tar.write(repo, browser, dir, gzip);
        gzip.finish();
        yield bytes;
      }
    };
  }
}
