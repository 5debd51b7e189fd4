package dev.stele.snapshot;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import dev.stele.jna.ShippedJna;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The Linux calls that restore needs and the JDK lacks: every entry is created and changed relative
 * to an open directory, never through a path that a symbolic link could redirect ({@code openat},
 * {@code mkdirat}, {@code symlinkat}, {@code mknodat}, {@code linkat}, {@code fchownat}, {@code
 * utimensat} and friends). JNA's direct mapping calls glibc, 2.33 or newer: older ones export
 * {@code mknodat} only as {@code __xmknodat}, whose version argument differs between x86_64 and
 * aarch64, and restore says so rather than blame JNA. Backup reads each entry's attributes with one
 * {@code statx} here too ({@link #lstat(byte[], String)}): the JDK's attribute view costs a parsed
 * attribute list, a map and a boxed value per attribute, per file.
 *
 * <p>Constants: the {@code AT_*}, {@code S_IF*} and errno values and {@code struct statx} are the
 * same on every Linux architecture; the {@code O_*} flags are not, and are given here for x86_64
 * and aarch64 (whose {@code O_DIRECTORY} and {@code O_NOFOLLOW} differ). Other systems are refused
 * with a clear message.
 *
 * <p>JNA loads its own native library from where {@link ShippedJna} points it.
 */
final class Libc {
  static final int AT_FDCWD = -100;
  static final int AT_SYMLINK_NOFOLLOW = 0x100;
  static final int AT_SYMLINK_FOLLOW = 0x400;
  static final int AT_EMPTY_PATH = 0x1000;

  static final int S_IFMT = 0170000;
  static final int S_IFSOCK = 0140000;
  static final int S_IFLNK = 0120000;
  static final int S_IFREG = 0100000;
  static final int S_IFBLK = 0060000;
  static final int S_IFDIR = 0040000;
  static final int S_IFCHR = 0020000;
  static final int S_IFIFO = 0010000;

  static final int EEXIST = 17;
  static final int ENOENT = 2;

  static final int O_RDONLY = 0;
  static final int O_WRONLY = 1;
  static final int O_CREAT = 0100;
  static final int O_EXCL = 0200;
  static final int O_NONBLOCK = 04000;
  static final int O_CLOEXEC = 02000000;
  static final int O_PATH = 010000000;
  static final int O_DIRECTORY;
  static final int O_NOFOLLOW;

  /** {@code tv_nsec} meaning "leave this time as it is". */
  static final long UTIME_OMIT = (1L << 30) - 2;

  private static final int STATX_BASIC_STATS = 0x7ff;
  private static final int STATX_SIZE = 256;

  /** Why the calls are unavailable, or null. */
  private static final String UNAVAILABLE;

  static {
    String arch = System.getProperty("os.arch");
    O_DIRECTORY = "aarch64".equals(arch) ? 040000 : 0200000;
    O_NOFOLLOW = "aarch64".equals(arch) ? 0100000 : 0400000;
    String why = null;
    if (!System.getProperty("os.name").equals("Linux")
        || !(arch.equals("amd64") || arch.equals("aarch64"))) {
      why =
          "restore runs on Linux on x86_64 or aarch64, not "
              + System.getProperty("os.name")
              + " on "
              + arch;
    } else {
      why = register();
    }
    UNAVAILABLE = why;
  }

  /** Binds the natives below to glibc; why it cannot, or null. */
  private static String register() {
    NativeLibrary c;
    try {
      ShippedJna.prepare();
      c = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
    } catch (LinkageError | RuntimeException e) {
      return "cannot load JNA's native library ("
          + e.getMessage()
          + "); give a writable -Djna.tmpdir=DIR, or -Djna.boot.library.path=DIR holding"
          + " it (in STELE_JAVA_OPTS)";
    }
    try {
      Native.register(Libc.class, c);
      return null;
    } catch (LinkageError | RuntimeException e) {
      // glibc before 2.33 has no mknodat symbol (only __xmknodat), before 2.28 no statx.
      return "restore needs glibc 2.33 or newer (" + e.getMessage() + ")";
    }
  }

  private Libc() {}

  /** True if the calls can be made here. */
  static boolean available() {
    return UNAVAILABLE == null;
  }

  /** Fails with one clear line if the calls cannot be made here. */
  static void require() throws IOException {
    if (UNAVAILABLE != null) {
      throw new IOException(UNAVAILABLE);
    }
  }

  // glibc, by direct mapping. Names and paths are NUL-terminated byte strings (see bytes()).
  private static native int openat(int dirfd, byte[] path, int flags, int mode)
      throws LastErrorException;

  private static native int mkdirat(int dirfd, byte[] path, int mode) throws LastErrorException;

  private static native int symlinkat(byte[] target, int dirfd, byte[] path)
      throws LastErrorException;

  private static native int mknodat(int dirfd, byte[] path, int mode, long dev)
      throws LastErrorException;

  private static native int linkat(int olddirfd, byte[] oldpath, int dirfd, byte[] path, int flags)
      throws LastErrorException;

  private static native int unlinkat(int dirfd, byte[] path, int flags) throws LastErrorException;

  private static native int fchownat(int dirfd, byte[] path, int uid, int gid, int flags)
      throws LastErrorException;

  private static native int fchown(int fd, int uid, int gid) throws LastErrorException;

  private static native int fchmod(int fd, int mode) throws LastErrorException;

  private static native int fchmodat(int dirfd, byte[] path, int mode, int flags)
      throws LastErrorException;

  private static native int futimens(int fd, long[] times) throws LastErrorException;

  private static native int utimensat(int dirfd, byte[] path, long[] times, int flags)
      throws LastErrorException;

  private static native int ftruncate(int fd, long length) throws LastErrorException;

  private static native long pwrite(int fd, Pointer buf, long count, long offset)
      throws LastErrorException;

  private static native int close(int fd) throws LastErrorException;

  private static native int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf)
      throws LastErrorException;

  private static native int geteuid();

  private static native String strerror(int errnum);

  /**
   * What {@code statx} says of an entry, read as {@link #lstat(byte[], String)} reads it: {@code
   * dev} is glibc's {@code makedev} of the device, as a {@link FileStat}'s.
   */
  record Stat(int mode, int nlink, long dev, long ino) {
    int type() {
      return mode & S_IFMT;
    }

    boolean isDirectory() {
      return type() == S_IFDIR;
    }

    /** True if this is the entry {@code other} described (same file system, same inode). */
    boolean sameFile(Stat other) {
      return dev == other.dev && ino == other.ino;
    }
  }

  /**
   * A failed call: the standard exception for the common cases (so callers and the CLI recognise
   * them), with the errno kept.
   */
  static IOException failure(String path, LastErrorException e) {
    int errno = e.getErrorCode();
    String reason = strerror(errno);
    return switch (errno) {
      case ENOENT -> new NoSuchFileException(path, null, reason);
      case EEXIST -> new FileAlreadyExistsException(path, null, reason);
      case 1, 13 -> new AccessDeniedException(path, null, reason); // EPERM, EACCES
      case 5, 23, 24, 28, 30, 122 ->
          new Fatal(path, reason); // EIO ENFILE EMFILE ENOSPC EROFS EDQUOT
      default -> new FileSystemException(path, null, reason);
    };
  }

  /** A failure that no later entry will escape either (a full disk, a read-only file system). */
  static final class Fatal extends FileSystemException {
    Fatal(String path, String reason) {
      super(path, null, reason);
    }
  }

  /** A name or path as the NUL-terminated bytes that C expects. */
  static byte[] cString(byte[] bytes) {
    byte[] c = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, c, 0, bytes.length);
    return c;
  }

  private static final byte[] EMPTY = {0};

  static int open(int dirfd, byte[] name, int flags, int mode, String shown) throws IOException {
    try {
      return openat(dirfd, name, flags | O_CLOEXEC, mode);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  static void mkdir(int dirfd, byte[] name, String shown) throws IOException {
    try {
      mkdirat(dirfd, name, 0700);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  static void symlink(byte[] target, int dirfd, byte[] name, String shown) throws IOException {
    try {
      symlinkat(target, dirfd, name);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  static void mknod(int dirfd, byte[] name, int mode, long rdev, String shown) throws IOException {
    try {
      mknodat(dirfd, name, mode, rdev);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Links the file open as {@code fd} (any kind, even {@code O_PATH}) as {@code name}. */
  static void link(int fd, int dirfd, byte[] name, String shown) throws IOException {
    try {
      linkat(AT_FDCWD, procPath(fd), dirfd, name, AT_SYMLINK_FOLLOW);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  static void unlink(int dirfd, byte[] name, String shown) throws IOException {
    try {
      unlinkat(dirfd, name, 0);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** The entry {@code name} in {@code dirfd}, not following a symbolic link; null if none. */
  static @Nullable Stat lstat(int dirfd, byte[] name, String shown) throws IOException {
    return stat(dirfd, name, AT_SYMLINK_NOFOLLOW, shown, true);
  }

  /** What {@code fd} is open on. */
  static Stat fstat(int fd, String shown) throws IOException {
    return Objects.requireNonNull(stat(fd, EMPTY, AT_EMPTY_PATH, shown, false));
  }

  private static @Nullable Stat stat(
      int dirfd, byte[] name, int flags, String shown, boolean nullIfAbsent) throws IOException {
    ByteBuffer b = statx(dirfd, name, flags, shown, nullIfAbsent);
    // struct statx: nlink 16, mode 28, ino 32, dev major/minor 136/140
    return b == null
        ? null
        : new Stat(
            b.getShort(28) & 0xFFFF,
            b.getInt(16),
            makedev(b.getInt(136), b.getInt(140)),
            b.getLong(32));
  }

  /** A thread's {@code struct statx}, and a view of it in the machine's byte order. */
  private static final class StatxBuffer {
    final byte[] bytes = new byte[STATX_SIZE];
    final ByteBuffer view = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
  }

  private static final ThreadLocal<StatxBuffer> STATX_BUFFERS =
      ThreadLocal.withInitial(StatxBuffer::new);

  /**
   * This thread's buffer, filled by {@code statx} for {@code path} relative to {@code dirfd}; null
   * if there is no such entry and {@code nullIfAbsent}, which restore asks for every entry it makes
   * (an exception each would cost more than the call).
   */
  private static @Nullable ByteBuffer statx(
      int dirfd, byte[] path, int flags, String shown, boolean nullIfAbsent) throws IOException {
    StatxBuffer b = STATX_BUFFERS.get();
    try {
      statx(dirfd, path, flags, STATX_BASIC_STATS, b.bytes);
    } catch (LastErrorException e) {
      if (nullIfAbsent && e.getErrorCode() == ENOENT) {
        return null;
      }
      throw failure(shown, e);
    }
    return b.view;
  }

  /**
   * All the attributes a tree records of the entry at {@code path} (NUL-terminated, absolute or
   * relative to the working directory), not following a symbolic link: what the JDK's {@code unix:}
   * view reads with {@code lstat}, to the bit. Device numbers are encoded as glibc's {@code
   * makedev} does, as {@code st_dev} and {@code st_rdev} hold them (and earlier snapshots
   * recorded).
   */
  static FileStat lstat(byte[] path, String shown) throws IOException {
    ByteBuffer b = Objects.requireNonNull(statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, shown, false));
    // struct statx: nlink 16, uid 20, gid 24, mode 28, ino 32, size 40, ctime 96, mtime 112,
    // rdev major/minor 128/132, dev major/minor 136/140; a timestamp is tv_sec (8), tv_nsec (4).
    int mode = b.getShort(28) & 0xFFFF;
    return new FileStat(
        mode & S_IFMT,
        mode & 07777,
        b.getInt(20),
        b.getInt(24),
        b.getLong(40),
        nanos(b, 112),
        nanos(b, 96),
        makedev(b.getInt(136), b.getInt(140)),
        b.getLong(32),
        b.getInt(16),
        makedev(b.getInt(128), b.getInt(132)));
  }

  /** A statx timestamp in nanoseconds, saturated beyond ±292 years as the JDK's FileTime does. */
  private static long nanos(ByteBuffer b, int at) {
    long seconds = b.getLong(at);
    try {
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), b.getInt(at + 8));
    } catch (ArithmeticException e) {
      return seconds < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** glibc's {@code makedev}: the device number {@code stat} gives for a major and a minor. */
  static long makedev(int major, int minor) {
    long ma = major & 0xFFFFFFFFL;
    long mi = minor & 0xFFFFFFFFL;
    return ((ma & 0xFFFFF000L) << 32)
        | ((ma & 0xFFFL) << 8)
        | ((mi & 0xFFFFFF00L) << 12)
        | (mi & 0xFFL);
  }

  static void chown(int fd, int uid, int gid, String shown) throws IOException {
    try {
      fchown(fd, uid, gid);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /**
   * Changes the owner of what an {@code O_PATH} descriptor names (a link itself, not its target).
   */
  static void chownPath(int fd, int uid, int gid, String shown) throws IOException {
    try {
      fchownat(fd, EMPTY, uid, gid, AT_EMPTY_PATH);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  static void chmod(int fd, int mode, String shown) throws IOException {
    try {
      fchmod(fd, mode);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Changes the mode of what an {@code O_PATH} descriptor names (a device node, a FIFO). */
  static void chmodPath(int fd, int mode, String shown) throws IOException {
    try {
      fchmodat(AT_FDCWD, procPath(fd), mode, 0);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Sets the modification time of {@code fd}'s file, leaving its access time. */
  static void setMtime(int fd, long mtimeNanos, String shown) throws IOException {
    try {
      futimens(fd, times(mtimeNanos));
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Sets the modification time of what an {@code O_PATH} descriptor names. */
  static void setMtimePath(int fd, long mtimeNanos, String shown) throws IOException {
    try {
      utimensat(AT_FDCWD, procPath(fd), times(mtimeNanos), 0);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /**
   * Sets the modification time of the entry {@code name} itself: a symbolic link is not followed.
   */
  static void setMtimeNoFollow(int dirfd, byte[] name, long mtimeNanos, String shown)
      throws IOException {
    try {
      utimensat(dirfd, name, times(mtimeNanos), AT_SYMLINK_NOFOLLOW);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  private static long[] times(long mtimeNanos) {
    return new long[] {
      0,
      UTIME_OMIT,
      Math.floorDiv(mtimeNanos, 1_000_000_000L),
      Math.floorMod(mtimeNanos, 1_000_000_000L)
    };
  }

  static void truncate(int fd, long length, String shown) throws IOException {
    try {
      ftruncate(fd, length);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Writes {@code count} bytes of {@code buf} at {@code offset}, all of them. */
  static void write(int fd, Pointer buf, long count, long offset, String shown) throws IOException {
    long done = 0;
    try {
      while (done < count) {
        done += pwrite(fd, buf.share(done), count - done, offset + done);
      }
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Closes {@code fd}; a failure (possible on network file systems) is an error. */
  static void close(int fd, String shown) throws IOException {
    try {
      close(fd);
    } catch (LastErrorException e) {
      throw failure(shown, e);
    }
  }

  /** Closes {@code fd} after another failure, which is the one reported. */
  static void closeQuietly(int fd) {
    try {
      close(fd);
    } catch (LastErrorException e) {
      // the first failure is the one that matters
    }
  }

  static boolean isRoot() {
    return geteuid() == 0;
  }

  /** {@code /proc/self/fd/N}: the file {@code fd} is open on, whatever its name is now. */
  private static byte[] procPath(int fd) {
    return cString(("/proc/self/fd/" + fd).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
  }
}
