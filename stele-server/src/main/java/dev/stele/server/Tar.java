package dev.stele.server;

import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A directory of a snapshot written as a POSIX tar (pax interchange format) to a stream, in the
 * order and with the names of {@link ArchiveWalk}, each file's content read chunk by chunk as it is
 * written. Each entry is a 512-byte ustar header, preceded by a pax extended header ({@code x})
 * when a value does not fit it: a name longer than 100 bytes or not ASCII, a size of 8 GiB or more,
 * a uid or gid above 2097151. Modes keep their permission bits, times their seconds.
 */
final class Tar {
  private static final int BLOCK = 512;
  private static final long MAX_SIZE = 077777777777L;
  private static final long MAX_ID = 07777777L;

  private Tar() {}

  /** Writes the tar of {@code dir}'s content; gives the bytes of file content it holds. */
  static long write(Repository repo, SnapshotBrowser browser, Node dir, OutputStream out)
      throws IOException {
    long bytes =
        ArchiveWalk.walk(
            browser,
            dir,
            new ArchiveWalk.Sink() {
              @Override
              public void directory(String name, Node n) throws IOException {
                entry(out, name, n, '5', 0);
              }

              @Override
              public long file(String name, Node n) throws IOException {
                entry(out, name, n, '0', n.size());
                long sent = n.size() > 0 ? Download.copy(repo, n, 0, n.size() - 1, out) : 0;
                if (sent != n.size()) {
                  throw new IOException(name + ": read " + sent + " bytes of " + n.size());
                }
                pad(out, sent);
                return sent;
              }
            });
    out.write(new byte[2 * BLOCK]); // the end of the archive
    return bytes;
  }

  private static void entry(OutputStream out, String name, Node n, char type, long size)
      throws IOException {
    byte[] path = name.getBytes(StandardCharsets.UTF_8);
    Map<String, String> pax = new LinkedHashMap<>();
    boolean ascii = path.length == name.length();
    if (path.length > 100 || !ascii) {
      pax.put("path", name);
    }
    if (size > MAX_SIZE) {
      pax.put("size", Long.toString(size));
    }
    long uid = Integer.toUnsignedLong(n.uid());
    long gid = Integer.toUnsignedLong(n.gid());
    if (uid > MAX_ID) {
      pax.put("uid", Long.toString(uid));
    }
    if (gid > MAX_ID) {
      pax.put("gid", Long.toString(gid));
    }
    if (!pax.isEmpty()) {
      byte[] records = records(pax);
      out.write(header("PaxHeaders/entry", 0644, 0, 0, records.length, 0, 'x'));
      out.write(records);
      pad(out, records.length);
    }
    String shortName = ascii && path.length <= 100 ? name : "long-name";
    long seconds = Math.max(0, Math.floorDiv(n.mtimeNanos(), 1_000_000_000L));
    out.write(
        header(
            shortName,
            n.mode() & 07777,
            uid > MAX_ID ? 0 : uid,
            gid > MAX_ID ? 0 : gid,
            size > MAX_SIZE ? 0 : size,
            seconds,
            type));
  }

  /** {@code "<length> <key>=<value>\n"} for each, the length counting the whole record. */
  private static byte[] records(Map<String, String> pax) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (var e : pax.entrySet()) {
      int body =
          (" " + e.getKey() + "=" + e.getValue() + "\n").getBytes(StandardCharsets.UTF_8).length;
      int length = body + Integer.toString(body).length();
      if (Integer.toString(length).length() != Integer.toString(body).length()) {
        length++; // the length's own digits carried it over a power of ten
      }
      out.writeBytes(
          (length + " " + e.getKey() + "=" + e.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private static byte[] header(
      String name, long mode, long uid, long gid, long size, long mtime, char type) {
    byte[] h = new byte[BLOCK];
    byte[] n = name.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(n, 0, h, 0, Math.min(n.length, 100));
    octal(h, 100, 8, mode);
    octal(h, 108, 8, uid);
    octal(h, 116, 8, gid);
    octal(h, 124, 12, size);
    octal(h, 136, 12, Math.min(mtime, MAX_SIZE));
    h[156] = (byte) type;
    System.arraycopy("ustar\00000".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 8);
    Arrays.fill(h, 148, 156, (byte) ' ');
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    octal(h, 148, 7, sum); // six digits and a NUL; the eighth byte stays a space
    return h;
  }

  /** {@code value} as {@code width - 1} octal digits and a NUL. */
  private static void octal(byte[] h, int at, int width, long value) {
    String digits = Long.toOctalString(value);
    String padded = "0".repeat(width - 1 - digits.length()) + digits;
    System.arraycopy(padded.getBytes(StandardCharsets.US_ASCII), 0, h, at, width - 1);
    h[at + width - 1] = 0;
  }

  private static void pad(OutputStream out, long written) throws IOException {
    int rest = (int) (written % BLOCK);
    if (rest != 0) {
      out.write(new byte[BLOCK - rest]);
    }
  }
}
