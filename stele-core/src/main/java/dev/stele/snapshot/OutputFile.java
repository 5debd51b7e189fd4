package dev.stele.snapshot;

import com.sun.jna.Memory;
import java.io.IOException;

/**
 * A file being restored. FileRestore creates it (empty, with {@code O_EXCL}) while it walks the
 * snapshot; the first chunk to arrive opens it again, below the target and checked by inode, so a
 * file or link swapped in meanwhile is never written. Pages of zeros are skipped; the last chunk
 * sets the file's size if the writes fell short of it (so skipped pages at the end stay holes too),
 * closes it and gives it its owner, mode and time. A file that lost a chunk never gets them, and
 * the restore removes it at the end.
 *
 * <p>Restore holds one of these per file until the end: it keeps of the file's node only what it
 * sets at the end, and makes the name shown in messages only when one is needed.
 *
 * <p>Concurrency: chunks of one file may arrive from several threads; all state is guarded by the
 * instance's lock.
 */
final class OutputFile {
  private static final int PAGE = 4096;
  // Writes of at most 1 MiB, copied through one native buffer per writer thread.
  private static final int WRITE_SLICE = 1 << 20;
  private static final ThreadLocal<Memory> BUFFER =
      ThreadLocal.withInitial(() -> new Memory(WRITE_SLICE));

  private final FileRestore restore;
  private final TargetDir dir;
  private final byte[] name;

  // Of the snapshot's node, what the file gets at the end.
  private final long size;
  private final long mtimeNanos;
  private final int mode;
  private final int uid;
  private final int gid;

  // The inode restore made, which every later open checks.
  private final long device;
  private final long inode;

  private int remaining;

  /** Where the furthest write so far ended. */
  private long written;

  private int fd = -1;
  private boolean failed;

  OutputFile(
      FileRestore restore, TargetDir dir, byte[] name, Node node, Libc.Stat stat, int chunks) {
    this.restore = restore;
    this.dir = dir;
    this.name = name;
    this.size = node.size();
    this.mtimeNanos = node.mtimeNanos();
    this.mode = node.mode();
    this.uid = node.uid();
    this.gid = node.gid();
    this.device = stat.dev();
    this.inode = stat.ino();
    this.remaining = chunks;
  }

  String shown() {
    return dir.shown(FileName.decode(name, 0, name.length - 1)); // name is NUL-terminated
  }

  /**
   * The file restore made, for {@link Libc.Stat#sameFile}: its device and inode as {@link
   * Libc#fstat} gave them (the type and link count are not kept).
   */
  Libc.Stat stat() {
    return new Libc.Stat(Libc.S_IFREG, 1, device, inode);
  }

  byte[] name() {
    return name;
  }

  /** Its path below the target. */
  byte[] relative() {
    return dir.relative(name);
  }

  synchronized boolean failed() {
    return failed;
  }

  /**
   * Writes a chunk, {@code data[0, length)}, at {@code offset}, page by page, skipping pages of
   * zeros. Returns false if nothing was written: the file lost a chunk before, or it is no longer
   * the file restore made (it was replaced; restore is told once).
   */
  synchronized boolean write(long offset, byte[] data, int length) throws IOException {
    String shown = shown();
    if (!failed && fd < 0) {
      fd = restore.target().openBelow(relative(), Libc.O_WRONLY, stat(), shown);
      if (fd < 0) {
        fail();
        restore.replaced(this);
      }
    }
    if (failed) {
      done();
      return false;
    }
    Memory buffer = BUFFER.get();
    int start = 0;
    while (start < length) {
      int end = Math.min(length, start + PAGE);
      if (isZero(data, start, end)) {
        start = end;
        continue;
      }
      while (end < length
          && end - start < WRITE_SLICE
          && !isZero(data, end, Math.min(length, end + PAGE))) {
        end = Math.min(length, end + PAGE);
      }
      buffer.write(0, data, start, end - start);
      Libc.write(fd, buffer, end - start, offset + start, shown);
      written = Math.max(written, offset + end);
      start = end;
    }
    done();
    return true;
  }

  /**
   * A chunk of this file could not be read: it will not get its metadata and is removed at the end.
   * Returns true the first time, so that one warning names the file.
   */
  synchronized boolean lose() throws IOException {
    boolean first = fail();
    done();
    return first;
  }

  /** Closes the file if it is open, when the restore stops short; nothing more is written. */
  synchronized void abandon() {
    failed = true;
    if (fd >= 0) {
      Libc.closeQuietly(fd);
      fd = -1;
    }
  }

  private boolean fail() {
    if (failed) {
      return false;
    }
    failed = true;
    synchronized (dir.unfinished) {
      dir.unfinished.add(this);
    }
    return true;
  }

  private void done() throws IOException {
    if (--remaining > 0) {
      return;
    }
    if (fd >= 0) {
      int open = fd;
      fd = -1;
      String shown = shown();
      try {
        if (!failed) {
          if (written < size) {
            Libc.truncate(open, size, shown);
          }
          restore.setMetadata(open, uid, gid, mode, mtimeNanos, shown);
        }
      } finally {
        Libc.close(open, shown);
      }
    }
    restore.fileDone();
  }

  /** True if {@code data[from, to)} is all zeros. */
  private static boolean isZero(byte[] data, int from, int to) {
    for (int i = from; i < to; i++) {
      if (data[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
