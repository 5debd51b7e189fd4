package dev.stele.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The POSIX attributes of one path, read with one {@code lstat}: through {@link Libc}'s {@code
 * statx} where it can be called and the path is ASCII (whose bytes are then its text's, whatever
 * the JDK's file name encoding), else through the JDK's {@code unix:} attribute view, which gives
 * the same values.
 */
record FileStat(
    int type,
    int mode,
    int uid,
    int gid,
    long size,
    long mtimeNanos,
    long ctimeNanos,
    long device,
    long inode,
    int links,
    long rdev) {

  private static final String ATTRIBUTES =
      "unix:mode,uid,gid,size,lastModifiedTime,ctime,dev,ino,nlink,rdev";

  static FileStat of(Path path) throws IOException {
    if (Libc.available()) {
      String shown = path.toString();
      byte[] c = asciiCString(shown);
      if (c != null) {
        return Libc.lstat(c, shown);
      }
    }
    return ofJdk(path);
  }

  /** {@code text} as NUL-terminated bytes, if it is ASCII without NUL; else null. */
  private static byte @Nullable [] asciiCString(String text) {
    byte[] c = new byte[text.length() + 1];
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == 0 || ch > 0x7F) {
        return null;
      }
      c[i] = (byte) ch;
    }
    return c;
  }

  static FileStat ofJdk(Path path) throws IOException {
    Map<String, Object> a = Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) a.get("mode");
    return new FileStat(
        mode & Libc.S_IFMT,
        mode & 07777,
        (Integer) a.get("uid"),
        (Integer) a.get("gid"),
        (Long) a.get("size"),
        nanos((FileTime) a.get("lastModifiedTime")),
        nanos((FileTime) a.get("ctime")),
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("nlink"),
        (Long) a.get("rdev"));
  }

  /** The node kind of this file type; null for a type no tree records (none on Linux). */
  Node.Kind kind() {
    return kindOf(type);
  }

  /**
   * The node kind of a file type ({@code st_mode & S_IFMT}), or null. The constants are Libc's,
   * inlined at compile time: reading them loads neither Libc nor JNA.
   */
  static Node.Kind kindOf(int type) {
    return switch (type) {
      case Libc.S_IFREG -> Node.Kind.FILE;
      case Libc.S_IFDIR -> Node.Kind.DIRECTORY;
      case Libc.S_IFLNK -> Node.Kind.SYMLINK;
      case Libc.S_IFIFO -> Node.Kind.FIFO;
      case Libc.S_IFSOCK -> Node.Kind.SOCKET;
      case Libc.S_IFCHR -> Node.Kind.CHAR_DEVICE;
      case Libc.S_IFBLK -> Node.Kind.BLOCK_DEVICE;
      default -> null;
    };
  }

  /** True if size, modification or status change time differ from {@code before}'s. */
  boolean changedSince(FileStat before) {
    return size != before.size
        || mtimeNanos != before.mtimeNanos
        || ctimeNanos != before.ctimeNanos;
  }

  /**
   * The attributes recorded for a file that changed while it was read: the size is the bytes
   * actually read (the sum of the chunks recorded), and the ctime 0, which no file has, so that the
   * next backup never takes this record as unchanged and reads the file again.
   */
  FileStat changedWhileRead(long bytesRead) {
    return new FileStat(type, mode, uid, gid, bytesRead, mtimeNanos, 0, device, inode, links, rdev);
  }

  /** A node of this kind (the walker records an ancestor of a source as a directory). */
  Node toNode(String name, Node.Kind kind) {
    return new Node(
        name,
        kind,
        mode,
        uid,
        gid,
        mtimeNanos,
        ctimeNanos,
        device,
        inode,
        links,
        kind == Node.Kind.FILE ? size : 0,
        null,
        null,
        null,
        kind.isDevice() ? rdev : 0);
  }

  static long nanos(FileTime time) {
    return time.to(TimeUnit.NANOSECONDS);
  }
}
