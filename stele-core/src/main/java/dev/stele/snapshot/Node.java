package dev.stele.snapshot;

import dev.stele.repo.Id;
import java.util.List;

/**
 * One entry of a directory tree.
 *
 * @param name the entry's file name (one path segment)
 * @param kind file, directory or symbolic link
 * @param mode permission bits, including set-uid, set-gid and sticky ({@code 07777})
 * @param uid numeric owner
 * @param gid numeric group
 * @param mtimeNanos modification time, nanoseconds since the epoch
 * @param ctimeNanos status change time, nanoseconds since the epoch (change detection only)
 * @param device device number (change detection and hard links)
 * @param inode inode number (change detection and hard links)
 * @param links hard link count
 * @param size file size in bytes (0 for others)
 * @param chunks a file's content, in order; empty for others
 * @param subtree a directory's tree chunk, or null
 * @param target a symbolic link's target, or null
 * @param rdev a device node's device number ({@code st_rdev}); 0 for others
 */
public record Node(
    String name,
    Kind kind,
    int mode,
    int uid,
    int gid,
    long mtimeNanos,
    long ctimeNanos,
    long device,
    long inode,
    int links,
    long size,
    List<Id> chunks,
    Id subtree,
    String target,
    long rdev) {

  /** The kinds of entries a tree records, each with its node kind code (docs/format.md §10). */
  public enum Kind {
    FILE(0),
    DIRECTORY(1),
    SYMLINK(2),
    FIFO(3),
    SOCKET(4),
    CHAR_DEVICE(5),
    BLOCK_DEVICE(6);

    // values() clones its array on every call, and of() runs once per tree node decoded.
    private static final Kind[] KINDS = values();

    private final byte code;

    Kind(int code) {
      this.code = (byte) code;
    }

    /** The kind's byte in an encoded tree. */
    byte code() {
      return code;
    }

    /** The kind with byte {@code code} in an encoded tree, or null if there is none. */
    static Kind of(byte code) {
      for (Kind kind : KINDS) {
        if (kind.code == code) {
          return kind;
        }
      }
      return null;
    }

    /** True for the kinds that carry a device number. */
    public boolean isDevice() {
      return this == CHAR_DEVICE || this == BLOCK_DEVICE;
    }
  }

  public Node {
    chunks = chunks == null ? List.of() : List.copyOf(chunks);
  }

  /** A node that is not a device node ({@code rdev} 0). */
  public Node(
      String name,
      Kind kind,
      int mode,
      int uid,
      int gid,
      long mtimeNanos,
      long ctimeNanos,
      long device,
      long inode,
      int links,
      long size,
      List<Id> chunks,
      Id subtree,
      String target) {
    this(
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
        size,
        chunks,
        subtree,
        target,
        0);
  }

  public boolean isFile() {
    return kind == Kind.FILE;
  }

  public boolean isDirectory() {
    return kind == Kind.DIRECTORY;
  }

  /**
   * True if a file with these attributes can reuse {@code parent}'s chunks without being read. A
   * parent recorded with ctime 0 (it changed while it was read, docs/format.md §10) never matches.
   */
  boolean unchangedFrom(Node parent) {
    return parent != null
        && parent.kind == kind
        && parent.size == size
        && parent.mtimeNanos == mtimeNanos
        && parent.ctimeNanos == ctimeNanos
        && parent.inode == inode
        && parent.device == device;
  }

  Node withChunks(List<Id> newChunks) {
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
        size,
        newChunks,
        subtree,
        target,
        rdev);
  }

  Node withTarget(String linkTarget) {
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
        size,
        chunks,
        subtree,
        linkTarget,
        rdev);
  }

  Node withSubtree(Id tree) {
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
        size,
        chunks,
        tree,
        target,
        rdev);
  }
}
