package dev.stele.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The POSIX attributes of one path, read with one {@code lstat}. */
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
    int links) {

  static final int S_IFMT = 0170000;
  static final int S_IFREG = 0100000;
  static final int S_IFDIR = 0040000;
  static final int S_IFLNK = 0120000;
  private static final String ATTRIBUTES =
      "unix:mode,uid,gid,size,lastModifiedTime,ctime,dev,ino,nlink";

  static FileStat of(Path path) throws IOException {
    Map<String, Object> a = Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) a.get("mode");
    return new FileStat(
        mode & S_IFMT,
        mode & 07777,
        (Integer) a.get("uid"),
        (Integer) a.get("gid"),
        (Long) a.get("size"),
        nanos((FileTime) a.get("lastModifiedTime")),
        nanos((FileTime) a.get("ctime")),
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("nlink"));
  }

  boolean isFile() {
    return type == S_IFREG;
  }

  boolean isDirectory() {
    return type == S_IFDIR;
  }

  boolean isSymlink() {
    return type == S_IFLNK;
  }

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
        null);
  }

  static long nanos(FileTime time) {
    return time.to(TimeUnit.NANOSECONDS);
  }
}
