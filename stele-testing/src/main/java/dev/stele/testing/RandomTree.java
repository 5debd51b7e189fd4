package dev.stele.testing;

import dev.stele.snapshot.FileName;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Writes a directory tree that exercises what a backup must preserve, reproducibly from a seed:
 * files of many sizes and kinds (random, compressible, all-zero, sparse, duplicated), odd names,
 * symbolic links (dangling ones too), hard links, permission bits (set-gid directories included),
 * mtimes with nanoseconds, empty directories; on request names that are not UTF-8 and special files
 * (a FIFO, a socket, a character and a block device: those need root).
 *
 * <p>Everything but inode numbers is a function of the seed and the options, so two trees written
 * with the same seed compare equal with {@link TreeAssert}. Symbolic links and special files get
 * their mtimes from a second generator, so that the rest of the tree stays what the seed made it
 * before they had any.
 *
 * <p>Concurrency: an instance is a builder used by one thread.
 */
public final class RandomTree {
  private static final String[] ODD_NAMES = {
    "with space",
    " leading space",
    "trailing space ",
    "-leading-dash",
    "--double-dash",
    "ünïcødé-ファイル",
    "emoji-\uD83D\uDE00",
    "new\nline",
    "tab\tname",
    "back\\slash",
    "quote\"'",
    ".hidden",
    "a.b.c",
    "*star?",
  };
  private static final int[] FILE_MODES = {0644, 0600, 0755, 0400, 0640, 0777, 0700, 04755};
  private static final int[] DIR_MODES = {0755, 0700, 0750, 0775, 02775, 01777};
  private static final String WORDS =
      "the quick brown fox jumps over a lazy dog while backups stay write once and readable ";

  private final long seed;
  private int files = 60;
  private int maxFileSize = 256 << 10;
  private int maxDepth = 3;
  private boolean oddNames = true;
  private boolean links = true;
  private boolean sparse = true;
  private boolean byteNames;
  private boolean specialFiles;

  private Random random;
  private Random linkTimes;
  private final List<Path> writtenFiles = new ArrayList<>();
  private final List<Path> directories = new ArrayList<>();

  public RandomTree(long seed) {
    this.seed = seed;
  }

  /** About how many regular files to write (hard links not counted). */
  public RandomTree files(int count) {
    this.files = count;
    return this;
  }

  /** The largest ordinary file; sparse files may be larger in size but not in data. */
  public RandomTree maxFileSize(int bytes) {
    this.maxFileSize = bytes;
    return this;
  }

  public RandomTree maxDepth(int depth) {
    this.maxDepth = depth;
    return this;
  }

  /** Whether to use names with spaces, unicode, newlines, leading dashes. */
  public RandomTree oddNames(boolean enabled) {
    this.oddNames = enabled;
    return this;
  }

  /** Whether to make symbolic and hard links. */
  public RandomTree links(boolean enabled) {
    this.links = enabled;
    return this;
  }

  public RandomTree sparse(boolean enabled) {
    this.sparse = enabled;
    return this;
  }

  /**
   * Whether some names (and a link target) hold bytes that are not UTF-8, and two files' names
   * differ only in such a byte. Off by default.
   */
  public RandomTree byteNames(boolean enabled) {
    this.byteNames = enabled;
    return this;
  }

  /** Whether to make a FIFO, a socket and two device nodes (root only). Off by default. */
  public RandomTree specialFiles(boolean enabled) {
    this.specialFiles = enabled;
    return this;
  }

  /** Writes the tree into {@code root}, which is created if missing; returns {@code root}. */
  public Path writeTo(Path root) throws IOException {
    random = new Random(seed);
    linkTimes = new Random(~seed);
    writtenFiles.clear();
    directories.clear();
    Files.createDirectories(root);
    List<Path> dirs = new ArrayList<>();
    dirs.add(root);
    int dirCount = 1 + files / 6;
    for (int i = 0; i < dirCount; i++) {
      Path parent = dirs.get(random.nextInt(dirs.size()));
      if (root.relativize(parent).getNameCount() >= maxDepth && !parent.equals(root)) {
        parent = root;
      }
      Path dir = FileName.resolve(parent, name("dir", i));
      Files.createDirectory(dir);
      dirs.add(dir);
      directories.add(dir);
    }
    // Two empty directories, one nested in the other.
    Path empty = root.resolve("empty-dir");
    Files.createDirectories(empty.resolve("empty-child"));
    directories.add(empty);
    directories.add(empty.resolve("empty-child"));
    for (int i = 0; i < files; i++) {
      Path dir = dirs.get(random.nextInt(dirs.size()));
      Path file = FileName.resolve(dir, name("file", i));
      writeContent(file);
      writtenFiles.add(file);
      Files.setAttribute(file, "unix:mode", pick(FILE_MODES), LinkOption.NOFOLLOW_LINKS);
      setMtime(file);
    }
    if (links && !writtenFiles.isEmpty()) {
      makeLinks(root, dirs);
    }
    if (byteNames) {
      makeByteNames(root);
    }
    if (specialFiles) {
      makeSpecialFiles(root);
    }
    // Modes and mtimes of directories last, deepest first, so that creating entries inside them
    // does not move their mtime afterwards.
    for (int i = directories.size() - 1; i >= 0; i--) {
      Path dir = directories.get(i);
      Files.setAttribute(dir, "unix:mode", pick(DIR_MODES), LinkOption.NOFOLLOW_LINKS);
      setMtime(dir);
    }
    return root;
  }

  private void writeContent(Path file) throws IOException {
    int kind = random.nextInt(10);
    int size = sizeFor();
    switch (kind) {
      case 0 -> Files.write(file, new byte[0]);
      case 1 -> Files.write(file, new byte[size]); // all zero
      case 2, 3 -> Files.write(file, compressible(size));
      case 4 -> {
        if (sparse) {
          writeSparse(file, 1L + size * 8L + random.nextInt(4096), random, 3);
        } else {
          Files.write(file, bytes(size));
        }
      }
      case 5 -> {
        // Same content as an earlier file: deduplicated.
        if (writtenFiles.isEmpty()) {
          Files.write(file, bytes(size));
        } else {
          Files.copy(writtenFiles.get(random.nextInt(writtenFiles.size())), file);
        }
      }
      default -> Files.write(file, bytes(size));
    }
  }

  private int sizeFor() {
    // Mostly small files, some up to the maximum; a few with sizes around chunk boundaries.
    return switch (random.nextInt(4)) {
      case 0 -> random.nextInt(Math.min(maxFileSize, 100) + 1);
      case 1 -> random.nextInt(Math.min(maxFileSize, 8192) + 1);
      default -> random.nextInt(maxFileSize + 1);
    };
  }

  private void makeLinks(Path root, List<Path> dirs) throws IOException {
    makeSymbolicLinks(root, dirs);
    // Hard links: groups of two and three, across directories.
    for (int g = 0; g < 3; g++) {
      Path first = writtenFiles.get(random.nextInt(writtenFiles.size()));
      int extra = 1 + g % 2;
      for (int k = 0; k < extra; k++) {
        Path dir = dirs.get(random.nextInt(dirs.size()));
        Path link = dir.resolve("hardlink-" + g + "-" + k);
        if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
          Files.createLink(link, first);
        }
      }
    }
  }

  private void makeSymbolicLinks(Path root, List<Path> dirs) throws IOException {
    Path target = writtenFiles.get(random.nextInt(writtenFiles.size()));
    // Symbolic links: relative, absolute (dangling: the tree is moved around), to a directory,
    // dangling, to its own parent.
    symlink(root.resolve("link-relative"), root.relativize(target));
    symlink(root.resolve("link-absolute"), Path.of("/nonexistent/stele/" + target.getFileName()));
    symlink(root.resolve("link-dangling"), Path.of("does/not/exist"));
    if (dirs.size() > 1) {
      symlink(root.resolve("link-to-dir"), root.relativize(dirs.get(1)));
    }
    symlink(dirs.get(random.nextInt(dirs.size())).resolve("link-up"), Path.of(".."));
  }

  /** A symbolic link with an mtime of its own (set on the link: the JDK does not follow it). */
  private void symlink(Path link, Path target) throws IOException {
    Files.createSymbolicLink(link, target);
    Files.getFileAttributeView(link, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setTimes(FileTime.from(mtimeNanos(linkTimes), TimeUnit.NANOSECONDS), null, null);
  }

  private String name(String base, int i) {
    String name = base + i;
    if (oddNames && random.nextInt(4) == 0) {
      name = ODD_NAMES[random.nextInt(ODD_NAMES.length)] + "-" + name;
    }
    if (byteNames && random.nextInt(4) == 0) {
      name += invalidByte();
    }
    return name;
  }

  /** One byte that is never valid UTF-8 on its own, as a {@link FileName} holds it. */
  private String invalidByte() {
    return FileName.decode(new byte[] {(byte) (0x80 + random.nextInt(0x80))});
  }

  private void makeByteNames(Path root) throws IOException {
    for (int b : new int[] {0xfe, 0xff}) {
      Path twin = FileName.resolve(root, "twin" + FileName.decode(new byte[] {(byte) b}));
      Files.write(twin, bytes(1 + random.nextInt(100)));
      setMtime(twin);
    }
    Path dir = FileName.resolve(root, "dir" + invalidByte());
    Files.createDirectory(dir);
    symlink(
        FileName.resolve(root, "link" + invalidByte()),
        Path.of("..").resolve(dir.getFileName()).resolve("x"));
  }

  private void makeSpecialFiles(Path root) throws IOException {
    run("mkfifo", "-m", "0640", root.resolve("fifo").toString());
    run("mknod", "-m", "0600", root.resolve("char-device").toString(), "c", "1", "3");
    run("mknod", "-m", "0660", root.resolve("block-device").toString(), "b", "7", "200");
    try (var socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      // Closing the channel leaves the socket file behind, as a listener that died would.
      socket.bind(UnixDomainSocketAddress.of(root.resolve("socket")));
    }
    // touch -h sets the time without opening the file (the JDK opens it, and a FIFO blocks).
    for (String name : List.of("fifo", "char-device", "block-device", "socket")) {
      long nanos = mtimeNanos(linkTimes);
      String at = String.format("@%d.%09d", nanos / 1_000_000_000L, nanos % 1_000_000_000L);
      run("touch", "-h", "-d", at, root.resolve(name).toString());
    }
  }

  private static void run(String... command) throws IOException {
    try {
      Process p = new ProcessBuilder(command).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IOException(String.join(" ", command) + " failed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + String.join(" ", command), e);
    }
  }

  private int pick(int[] values) {
    return values[random.nextInt(values.length)];
  }

  private void setMtime(Path path) throws IOException {
    Files.setLastModifiedTime(path, FileTime.from(mtimeNanos(random), TimeUnit.NANOSECONDS));
  }

  /** 2001..2033, with nanoseconds. */
  private static long mtimeNanos(Random from) {
    long seconds = 1_000_000_000L + (from.nextLong() & 0x3FFF_FFFFL);
    return seconds * 1_000_000_000L + from.nextInt(1_000_000_000);
  }

  private byte[] bytes(int size) {
    byte[] b = new byte[size];
    random.nextBytes(b);
    return b;
  }

  private byte[] compressible(int size) {
    byte[] words = WORDS.getBytes(StandardCharsets.US_ASCII);
    byte[] b = new byte[size];
    int start = random.nextInt(words.length);
    for (int i = 0; i < size; i++) {
      b[i] = words[(start + i) % words.length];
      if (random.nextInt(64) == 0) {
        b[i] = (byte) ('A' + random.nextInt(26));
      }
    }
    return b;
  }

  /** Every regular file written (hard links excluded), in creation order. */
  public List<Path> files() {
    return List.copyOf(writtenFiles);
  }

  /**
   * Writes a sparse file: {@code size} bytes long, all holes except {@code blocks} random 4 KiB
   * blocks of random data at random offsets (the last block of the file always among them).
   */
  public static void writeSparse(Path file, long size, Random random, int blocks)
      throws IOException {
    // A channel, not a RandomAccessFile: Path.toFile would lose a name's bytes that are not UTF-8.
    try (FileChannel f =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      f.truncate(0);
      byte[] block = new byte[4096];
      for (int i = 0; i < blocks; i++) {
        long offset =
            i == 0 ? Math.max(0, size - block.length) : (long) (random.nextDouble() * size);
        int length = (int) Math.min(block.length, size - offset);
        random.nextBytes(block);
        f.write(ByteBuffer.wrap(block, 0, length), offset);
      }
      if (f.size() < size) {
        // A channel extends a file only by writing: a file of holes alone ends in one zero byte.
        f.write(ByteBuffer.allocate(1), size - 1);
      }
    }
  }

  /** Writes {@code size} bytes of incompressible data. */
  public static void writeRandom(Path file, long size, Random random) throws IOException {
    byte[] buf = new byte[1 << 20];
    try (var out = Files.newOutputStream(file)) {
      for (long left = size; left > 0; left -= buf.length) {
        random.nextBytes(buf);
        out.write(buf, 0, (int) Math.min(buf.length, left));
      }
    }
  }

  /**
   * Bytes the filesystem allocated to {@code file} ({@code stat %b × %B}), to check that a sparse
   * file stayed sparse. Returns -1 where {@code stat} is not available.
   */
  public static long allocatedBytes(Path file) {
    try {
      Process p =
          new ProcessBuilder("stat", "-c", "%b %B", file.toString())
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (p.waitFor() != 0) {
        return -1;
      }
      String[] parts = out.split(" ", -1);
      return Long.parseLong(parts[0]) * Long.parseLong(parts[1]);
    } catch (IOException | NumberFormatException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
