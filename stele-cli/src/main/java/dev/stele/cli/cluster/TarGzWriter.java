package dev.stele.cli.cluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

/**
 * A gzip-compressed POSIX tar archive (pax interchange format) of regular files, written as a
 * stream: each file is a 512-byte ustar header, its content padded to 512 bytes; a path longer than
 * the header's 100 bytes is given in a pax extended header before it ({@code path=...}, as
 * POSIX.1-2001 says); two zero blocks end the archive. Enough for {@code backup download}: files
 * only, no links, owner root.
 */
final class TarGzWriter implements AutoCloseable {
  private static final int BLOCK = 512;
  private static final long MAX_SIZE = 077777777777L;

  private final GZIPOutputStream out;

  TarGzWriter(OutputStream out) throws IOException {
    this.out = new GZIPOutputStream(out, 64 * 1024);
  }

  /** A file of {@code size} bytes; write its content to the stream returned, then call again. */
  OutputStream file(String path, long size, long mtimeSeconds) throws IOException {
    if (size < 0 || size > MAX_SIZE) {
      throw new IOException(path + ": " + size + " bytes is more than a tar header holds");
    }
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    if (name.length > 100) {
      byte[] record = pax("path", path);
      out.write(header("PaxHeaders/" + tail(path), 'x', record.length, mtimeSeconds));
      out.write(record);
      pad(record.length);
      name = Arrays.copyOf(tail(path).getBytes(StandardCharsets.UTF_8), 100);
    }
    out.write(header(name, '0', size, mtimeSeconds));
    return new Content(size);
  }

  /** One pax record, {@code "<length> key=value\n"}, whose length counts its own digits. */
  private static byte[] pax(String key, String value) {
    int rest = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8).length;
    int length = rest + String.valueOf(rest).length();
    if (String.valueOf(length).length() != String.valueOf(rest).length()) {
      length++;
    }
    return (length + " " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The last 90 bytes' worth of characters of a path, for the name field of a long one. */
  private static String tail(String path) {
    String t = path.substring(path.lastIndexOf('/') + 1);
    while (t.getBytes(StandardCharsets.UTF_8).length > 90) {
      t = t.substring(1);
    }
    return t;
  }

  private static byte[] header(String name, char type, long size, long mtime) {
    return header(name.getBytes(StandardCharsets.UTF_8), type, size, mtime);
  }

  private static byte[] header(byte[] name, char type, long size, long mtime) {
    byte[] h = new byte[BLOCK];
    System.arraycopy(name, 0, h, 0, Math.min(name.length, 100));
    octal(h, 100, 8, 0644);
    octal(h, 108, 8, 0);
    octal(h, 116, 8, 0);
    octal(h, 124, 12, size);
    octal(h, 136, 12, Math.max(0, mtime));
    h[156] = (byte) type;
    ascii(h, 257, "ustar\0");
    ascii(h, 263, "00");
    ascii(h, 265, "root");
    ascii(h, 297, "root");
    Arrays.fill(h, 148, 156, (byte) ' ');
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    octal(h, 148, 7, sum);
    return h;
  }

  /** {@code value} in octal, zero-padded to {@code length - 1} digits and a NUL. */
  private static void octal(byte[] h, int at, int length, long value) {
    String digits = Long.toOctalString(value);
    String padded = "0".repeat(length - 1 - digits.length()) + digits;
    ascii(h, at, padded + "\0");
  }

  private static void ascii(byte[] h, int at, String text) {
    byte[] b = text.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(b, 0, h, at, b.length);
  }

  private void pad(long written) throws IOException {
    int rest = (int) (written % BLOCK);
    if (rest != 0) {
      out.write(new byte[BLOCK - rest]);
    }
  }

  @Override
  public void close() throws IOException {
    out.write(new byte[2 * BLOCK]);
    out.close();
  }

  /** A file's content: exactly its size, then the padding. */
  private final class Content extends OutputStream {
    private final long size;
    private long written;
    private boolean closed;

    Content(long size) {
      this.size = size;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (written + len > size) {
        throw new IOException("more content than the " + size + " bytes announced");
      }
      out.write(b, off, len);
      written += len;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      if (written != size) {
        throw new IOException("content of " + written + " bytes, " + size + " announced");
      }
      pad(size);
    }
  }
}
