package dev.stele.server;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HexFormat;

/** A file's bytes for a download: a range of them read chunk by chunk, and the file's ETag. */
final class Download {
  private Download() {}

  /** Writes bytes {@code start} to {@code end} (inclusive), reading only the chunks they lie in. */
  static long copy(Repository repo, Node file, long start, long end, OutputStream out)
      throws IOException {
    long pos = 0;
    long sent = 0;
    for (Id chunk : file.chunks()) {
      if (pos > end) {
        break;
      }
      Location where = repo.locate(chunk);
      if (where == null) {
        throw new BlobNotFoundException("chunk " + chunk.hex() + " (in no index)");
      }
      long length = where.entry().rawLength();
      if (pos + length > start) {
        byte[] data = repo.readChunk(chunk);
        int from = (int) Math.max(0, start - pos);
        int to = (int) Math.min(data.length, end + 1 - pos);
        out.write(data, from, to - from);
        sent += to - from;
      }
      pos += length;
    }
    return sent;
  }

  static String etag(Node file) {
    StringBuilder ids = new StringBuilder();
    file.chunks().forEach(id -> ids.append(id.hex()));
    return "\"" + HexFormat.of().formatHex(Users.sha256(ids.toString())).substring(0, 32) + "\"";
  }
}
