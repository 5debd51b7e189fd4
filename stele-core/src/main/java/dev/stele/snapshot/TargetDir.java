package dev.stele.snapshot;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A directory of a restore's target, and the only way restore touches the target: every entry is
 * made, inspected and changed relative to this directory's open descriptor, and a subdirectory is
 * entered with {@code O_DIRECTORY|O_NOFOLLOW}, so no symbolic link, {@code ..} or renamed parent
 * can lead outside the target. Nothing that exists is opened for writing: an entry in the way is
 * unlinked (a link itself, never what it points to) and a new one made with {@code O_EXCL}.
 *
 * <p>A directory is open only while restore works in it; it remembers its device and inode, and
 * {@link #reopen} refuses one that was swapped since. The target itself stays open for the whole
 * restore.
 *
 * <p>Concurrency: the entries of one directory are made by one walker thread, its subdirectories
 * entered by any ({@link #children} is locked); {@link #unfinished} is added to by writer threads.
 */
final class TargetDir implements AutoCloseable {
  final TargetDir parent;

  /** The name in the parent, NUL-terminated; null for the target. */
  final byte[] name;

  /** For messages: the target's path, then the names as {@link FileName#display} shows them. */
  final String shown;

  /** What to give it once everything in it is done; null for the target itself. */
  final Node node;

  final List<TargetDir> children = new ArrayList<>();
  final List<HardLink> links = new ArrayList<>();

  /** Files made here that did not get all their chunks: removed at the end if still there. */
  final List<OutputFile> unfinished = new ArrayList<>();

  private final byte[] relative;
  private Libc.Stat stat;
  private int fd = -1;

  /** A further name for a file restored elsewhere. */
  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  record HardLink(byte[] name, String shown, OutputFile first) {}

  private TargetDir(TargetDir parent, byte[] name, String shown, Node node) {
    this.parent = parent;
    this.name = name;
    this.shown = shown;
    this.node = node;
    this.relative = parent == null ? null : parent.relative(name);
  }

  /** Opens the target (following a link the user named: the target is the user's choice). */
  static TargetDir openTarget(Path target) throws IOException {
    Libc.require();
    TargetDir root = new TargetDir(null, null, FileName.display(FileName.ofPath(target)), null);
    // The path's exact bytes: Path.toString is lossy for a name that is not valid UTF-8.
    byte[] path = Libc.cString(FileName.encode(FileName.ofPath(target.toAbsolutePath())));
    root.fd = Libc.open(Libc.AT_FDCWD, path, Libc.O_RDONLY | Libc.O_DIRECTORY, 0, root.shown);
    return root;
  }

  int fd() {
    return fd;
  }

  /** How a message names the entry {@code name} of this directory. */
  String shown(String entryName) {
    return shown + "/" + FileName.display(entryName);
  }

  /**
   * The path of {@code entry} below the target, NUL-terminated, for {@code openat} on the target;
   * what it leads to is checked by inode, since a directory on the way may have been swapped.
   */
  byte[] relative(byte[] entry) {
    if (relative == null) {
      return entry;
    }
    byte[] path = new byte[relative.length + entry.length];
    System.arraycopy(relative, 0, path, 0, relative.length - 1);
    path[relative.length - 1] = '/';
    System.arraycopy(entry, 0, path, relative.length, entry.length);
    return path;
  }

  /** Enters the subdirectory {@code entry}, made (or found) for {@code dirNode}. */
  TargetDir enterDirectory(byte[] entry, String entryShown, Node dirNode) throws IOException {
    TargetDir child = new TargetDir(this, entry, entryShown, dirNode);
    child.fd =
        Libc.open(fd, entry, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW, 0, entryShown);
    try {
      child.stat = Libc.fstat(child.fd, entryShown);
    } catch (IOException e) {
      child.close();
      throw e;
    }
    synchronized (children) {
      children.add(child); // walkers enter sibling directories at once
    }
    return child;
  }

  /** Opens this directory again below its open parent; false if it is no longer the same one. */
  boolean reopen() throws IOException {
    fd = Libc.open(parent.fd, name, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW, 0, shown);
    if (!Libc.fstat(fd, shown).sameFile(stat)) {
      close();
      return false;
    }
    return true;
  }

  /** Creates the new, empty file {@code name}, open for writing. */
  int createFile(byte[] entry, String entryShown) throws IOException {
    int flags = Libc.O_WRONLY | Libc.O_CREAT | Libc.O_EXCL | Libc.O_NOFOLLOW;
    return Libc.open(fd, entry, flags, 0600, entryShown);
  }

  /**
   * Opens {@code path} below the target (call it on the target) with {@code flags}, if it is still
   * the file {@code expected}; else returns -1.
   */
  int openBelow(byte[] path, int flags, Libc.Stat expected, String entryShown) throws IOException {
    int opened;
    try {
      opened = Libc.open(fd, path, flags | Libc.O_NOFOLLOW | Libc.O_NONBLOCK, 0, entryShown);
    } catch (Libc.Fatal e) {
      throw e;
    } catch (FileSystemException e) {
      return -1; // gone, a link, a directory: not what restore made
    }
    boolean same = false;
    try {
      same = Libc.fstat(opened, entryShown).sameFile(expected);
    } finally {
      if (!same) {
        Libc.closeQuietly(opened);
      }
    }
    return same ? opened : -1;
  }

  /** Creates the symbolic link {@code name} for {@code link}; returns 0. */
  int createSymlink(byte[] entry, String entryShown, Node link) throws IOException {
    Libc.symlink(Libc.cString(FileName.encode(link.target())), fd, entry, entryShown);
    return 0;
  }

  /** Gives the symbolic link restore just made its owner (as root) and time. */
  void setSymlinkMetadata(byte[] entry, String entryShown, Node link, boolean root)
      throws IOException {
    if (root) {
      withPathHandle(
          entry,
          entryShown,
          Libc.S_IFLNK,
          h -> Libc.chownPath(h, link.uid(), link.gid(), entryShown));
    }
    // A link has no descriptor to set a time through; AT_SYMLINK_NOFOLLOW keeps it on the link.
    Libc.setMtimeNoFollow(fd, entry, link.mtimeNanos(), entryShown);
  }

  /** Creates the FIFO, socket or device node {@code name} for {@code special}; returns 0. */
  int createSpecial(byte[] entry, String entryShown, Node special) throws IOException {
    Libc.mknod(fd, entry, typeOf(special) | 0600, special.rdev(), entryShown);
    return 0;
  }

  /** Gives the special file restore just made its owner (as root), mode and time. */
  void setSpecialMetadata(byte[] entry, String entryShown, Node special, boolean root)
      throws IOException {
    withPathHandle(
        entry,
        entryShown,
        typeOf(special),
        h -> {
          if (root) {
            Libc.chownPath(h, special.uid(), special.gid(), entryShown);
          }
          Libc.chmodPath(h, special.mode() & 07777, entryShown);
          Libc.setMtimePath(h, special.mtimeNanos(), entryShown);
        });
  }

  private static int typeOf(Node special) {
    return switch (special.kind()) {
      case FIFO -> Libc.S_IFIFO;
      case SOCKET -> Libc.S_IFSOCK;
      case CHAR_DEVICE -> Libc.S_IFCHR;
      case BLOCK_DEVICE -> Libc.S_IFBLK;
      default -> throw new IllegalArgumentException(special.kind() + " is not a special file");
    };
  }

  private interface PathAction {
    void apply(int handle) throws IOException;
  }

  /**
   * Runs {@code action} on an {@code O_PATH} descriptor of {@code name} (which opens nothing, not
   * even a device), if it is still the lone entry of {@code type} that restore just made.
   */
  private void withPathHandle(byte[] entry, String entryShown, int type, PathAction action)
      throws IOException {
    int h = Libc.open(fd, entry, Libc.O_PATH | Libc.O_NOFOLLOW, 0, entryShown);
    try {
      Libc.Stat s = Libc.fstat(h, entryShown);
      if (s.type() != type || s.nlink() != 1) {
        throw new FileSystemException(
            entryShown, null, "replaced during the restore, left as it is");
      }
      action.apply(h);
    } finally {
      Libc.closeQuietly(h);
    }
  }

  /** Links {@code link.first()}, found below the target by inode, as {@code link.name()}. */
  void link(TargetDir target, HardLink link) throws IOException {
    OutputFile first = link.first();
    int h = target.openBelow(first.relative(), Libc.O_PATH, first.stat(), link.shown());
    if (h < 0) {
      throw new FileSystemException(
          link.shown(), null, "not linked: " + first.shown() + " was replaced during the restore");
    }
    try {
      Libc.link(h, fd, link.name(), link.shown());
    } finally {
      Libc.closeQuietly(h);
    }
  }

  /** Removes {@code name} if it is still the file {@code expected}. */
  void removeIf(byte[] entry, Libc.Stat expected, String entryShown) throws IOException {
    Libc.Stat s = Libc.lstat(fd, entry, entryShown);
    if (s != null && s.sameFile(expected)) {
      Libc.unlink(fd, entry, entryShown);
    }
  }

  @Override
  public void close() {
    if (fd >= 0) {
      Libc.closeQuietly(fd);
      fd = -1;
    }
  }
}
