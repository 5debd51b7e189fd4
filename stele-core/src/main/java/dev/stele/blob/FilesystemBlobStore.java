package dev.stele.blob;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A blob store in a local or mounted directory: each name segment is a directory, each blob a file.
 *
 * <p>Layout under the root:
 *
 * <pre>
 *   packs/ab/ab12…          a published blob, read-only: the umask's read bits (0444 under 022)
 *   keys/…                  its owner's alone (0400); its group's too (0440 under 022) if the
 *                           root is set-group-id, the sign of a directory shared by a group
 *   .tmp/…                  a write in progress or a pack being built (then linked into place),
 *                           or left by a writer that crashed
 *   .retention/&lt;name&gt;/…     retention records, see {@link RetentionRecords}
 * </pre>
 *
 * <p>A create writes a temporary file, forces it to disk, and publishes it with a hard link, which
 * the operating system refuses if the name exists: two writers of one name, in one process or
 * several, get exactly one winner and never a replaced file. Retention is recorded <em>before</em>
 * the blob is published, so a crash cannot leave a published blob without its retention.
 *
 * <p>The filesystem enforces neither retention nor immutability against anyone who bypasses this
 * class, so {@link #capabilities()} reports no object lock: this store records retention and
 * refuses deletes itself, and marks published files read-only as a guard against accidents.
 *
 * <p>Limits: a name cannot also be a directory of other names ({@code a} and {@code a/b}); such a
 * create fails with an {@link IOException}. Directories emptied by deletes are left in place. On a
 * case-insensitive filesystem, names differing only in case collide. Temporary files left by a
 * crashed writer are never listed; the first write of each store removes those a day old.
 *
 * <p>A write the storage refuses as a whole (disk full, read-only, permission denied, a root that
 * is a file) throws {@link StorageRefusedException} naming the root and the blob.
 *
 * <p>Concurrency: safe for many threads and for several processes sharing the root. Within one JVM,
 * delete and extendRetention of the same name are serialised, so a delete never slips in between an
 * extension's check and its record; across processes only one should delete at a time (maintenance,
 * by design).
 */
public final class FilesystemBlobStore implements BlobStore {
  private static final String TEMPORARIES = ".tmp";
  private static final String RETENTION = ".retention";
  private static final Capabilities CAPABILITIES = new Capabilities(false, false, true, false);

  /** Key blobs: the master key sealed by a password, so never readable by others (format.md). */
  private static final String SECRET = "keys/";

  // Shared by every instance: two stores opened on one root in one JVM must still exclude.
  private static final ReentrantLock[] STRIPES = new ReentrantLock[64];

  static {
    for (int i = 0; i < STRIPES.length; i++) {
      STRIPES[i] = new ReentrantLock();
    }
  }

  private final Path root;
  private final Path temporaries;
  private final RetentionRecords retentions;
  private final Clock clock;
  private final TemporarySweep sweep;

  /** A store rooted at {@code root}, judging retention by {@code clock}; creates nothing yet. */
  public FilesystemBlobStore(Path root, Clock clock) {
    this.root = root.toAbsolutePath().normalize();
    this.temporaries = this.root.resolve(TEMPORARIES);
    this.retentions = new RetentionRecords(this.root.resolve(RETENTION), temporaries);
    this.sweep = new TemporarySweep(temporaries);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A store rooted at {@code root} that judges retention by the system clock. */
  public static FilesystemBlobStore open(Path root) {
    return new FilesystemBlobStore(root, Clock.systemUTC());
  }

  @Override
  public void create(String name, byte[] data, Retention retention) throws IOException {
    Objects.requireNonNull(data, "data");
    create(
        name,
        data.length,
        readers -> FileSync.writeTemporary(temporaries, data, readers),
        retention);
  }

  /**
   * Takes {@code file} over where it is on this store's filesystem (a hard link into the store's
   * temporary directory, forced to disk), so that a pack built in {@link #spoolDirectory} is
   * written once, not copied; else copies it there, never holding it in memory. A blob that must
   * stay secret (a key) is always copied, so that it gets the store's own modes.
   */
  @Override
  public void create(String name, Path file, Retention retention) throws IOException {
    Objects.requireNonNull(file, "file");
    create(
        name,
        Files.size(file),
        readers -> {
          Path linked =
              readers == FileSync.Readers.EVERYONE
                  ? FileSync.linkTemporary(temporaries, file)
                  : null;
          return linked != null ? linked : FileSync.writeTemporary(temporaries, file, readers);
        },
        retention);
  }

  /** The store's temporary directory: a pack built there is linked into place, not copied. */
  @Override
  public Path spoolDirectory() {
    return temporaries;
  }

  @Override
  public IOException spoolRefusal(String name, Path file, IOException e) {
    return file.toAbsolutePath().normalize().startsWith(temporaries) ? refused(name, 0, e) : e;
  }

  private interface Temporary {
    Path write(FileSync.Readers readers) throws IOException;
  }

  private void create(String name, long length, Temporary content, Retention retention)
      throws IOException {
    Path target = path(name);
    Objects.requireNonNull(retention, "retention");
    // Checked first so that a refused create leaves the existing blob's retention alone. A racing
    // loser that passes this check adds its retention to the winner's: longer, never shorter.
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(name + ": the name is a directory of other blobs");
    }
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new BlobExistsException(name);
    }
    sweep.once();
    Path parent = Objects.requireNonNull(target.getParent());
    boolean newDirectories = !Files.isDirectory(parent);
    createParents(name, parent);
    Path temp;
    try {
      retentions.add(name, retention);
      temp = content.write(readers(name));
    } catch (IOException e) {
      throw refused(name, length, e);
    }
    try {
      FileSync.makeReadOnly(temp);
      publish(name, temp, target);
    } finally {
      FileSync.deleteIfExists(temp);
    }
    FileSync.syncDirectory(parent);
    if (newDirectories) {
      for (Path dir = parent.getParent(); dir != null && dir.startsWith(root); ) {
        FileSync.syncDirectory(dir);
        dir = dir.getParent();
      }
    }
  }

  private FileSync.Readers readers(String name) {
    if (!name.startsWith(SECRET)) {
      return FileSync.Readers.EVERYONE;
    }
    return FileSync.isGroupShared(root) ? FileSync.Readers.GROUP : FileSync.Readers.OWNER;
  }

  private void createParents(String name, Path parent) throws IOException {
    try {
      Files.createDirectories(parent);
    } catch (FileSystemException e) {
      for (Path dir = parent;
          dir != null && dir.startsWith(root) && !dir.equals(root);
          dir = dir.getParent()) {
        if (Files.isRegularFile(dir, LinkOption.NOFOLLOW_LINKS)) {
          throw new IOException(name + ": " + nameOf(dir) + " is a blob, not a directory", e);
        }
      }
      throw refused(name, 0, e);
    }
  }

  private void publish(String name, Path temp, Path target) throws IOException {
    try {
      Files.createLink(target, temp);
    } catch (FileAlreadyExistsException e) {
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
        throw new IOException(name + ": the name is a directory of other blobs", e);
      }
      throw new BlobExistsException(name);
    } catch (UnsupportedOperationException e) {
      // No hard links here (some network and FAT filesystems). A move without REPLACE_EXISTING
      // never replaces, but its existence check is not atomic with the rename.
      try {
        Files.move(temp, target);
      } catch (FileAlreadyExistsException exists) {
        throw new BlobExistsException(name);
      }
    } catch (IOException e) {
      throw refused(name, 0, e);
    }
  }

  private StorageRefusedException refused(String name, long size, IOException e) {
    return Refusals.diagnose(root, temporaries, name, size, e);
  }

  @Override
  public byte[] read(String name) throws IOException {
    Path file = path(name);
    long size;
    try {
      size = Files.size(file);
    } catch (NoSuchFileException e) {
      throw new BlobNotFoundException(name);
    } catch (IOException e) {
      throw notABlob(name, file, e);
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IOException(name + ": too large to read whole (" + size + " bytes)");
    }
    // Not Files.readAllBytes: it reads through a direct buffer as large as the file.
    return read(name, 0, (int) size);
  }

  @Override
  public byte[] read(String name, long offset, int length) throws IOException {
    return read(name, offset, length, null);
  }

  @Override
  public byte[] read(String name, long offset, int length, byte @Nullable [] into)
      throws IOException {
    Path file = path(name);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (offset + length > size) {
        throw new EOFException(
            name + ": range " + offset + "+" + length + " goes past the end (" + size + " bytes)");
      }
      ByteBuffer buffer =
          ByteBuffer.wrap(
              into != null && into.length >= length ? into : new byte[length], 0, length);
      while (buffer.position() < length) {
        buffer.limit(Math.min(length, buffer.position() + FileSync.IO_SLICE));
        if (in.read(buffer, offset + buffer.position()) < 0) {
          throw new EOFException(name + ": shrank while being read");
        }
      }
      return buffer.array();
    } catch (NoSuchFileException e) {
      throw new BlobNotFoundException(name);
    } catch (IOException e) {
      throw notABlob(name, file, e);
    }
  }

  @Override
  public InputStream openStream(String name) throws IOException {
    Path file = path(name);
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new BlobNotFoundException(name); // a prefix of other names; Linux opens it for reading
    }
    try {
      FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
      try {
        return new FileStream(name, in, in.size());
      } catch (IOException | RuntimeException e) {
        in.close();
        throw e;
      }
    } catch (NoSuchFileException e) {
      throw new BlobNotFoundException(name);
    } catch (IOException e) {
      throw notABlob(name, file, e);
    }
  }

  /**
   * A published file read from start to the size it had when opened, in slices of at most {@link
   * FileSync#IO_SLICE} bytes (the JDK reads a heap buffer through a temporary direct buffer of the
   * same size, cached per thread). A file that ends sooner shrank: an {@link EOFException}.
   */
  private static final class FileStream extends InputStream {
    private final String name;
    private final FileChannel in;
    private final long size;
    private long position;

    FileStream(String name, FileChannel in, long size) {
      this.name = name;
      this.in = in;
      this.size = size;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (position >= size) {
        return -1;
      }
      int n = (int) Math.min(Math.min(len, FileSync.IO_SLICE), size - position);
      int got = in.read(ByteBuffer.wrap(b, off, n), position);
      if (got < 0) {
        throw new EOFException(name + ": shrank while being read, at " + position + " of " + size);
      }
      position += got;
      return got;
    }

    @Override
    public long skip(long n) {
      long skipped = Math.max(0, Math.min(n, size - position));
      position += skipped;
      return skipped;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, size - position);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /**
   * A directory (a prefix of other names) is not a blob; a root that is no directory is refused;
   * anything else is a real failure.
   */
  private IOException notABlob(String name, Path file, IOException e) throws IOException {
    Refusals.checkRoot(root);
    return Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS) ? new BlobNotFoundException(name) : e;
  }

  @Override
  public List<BlobInfo> list(String prefix) throws IOException {
    BlobNames.checkPrefix(prefix);
    // Walk only the deepest directory the prefix names; a partial last segment filters below.
    int slash = prefix.lastIndexOf('/');
    Path start = slash < 0 ? root : root.resolve(prefix.substring(0, slash));
    List<BlobInfo> found = new ArrayList<>();
    if (!Files.isDirectory(start, LinkOption.NOFOLLOW_LINKS)) {
      Refusals.checkRoot(root);
      return found;
    }
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            boolean reserved = dir.getParent() != null && dir.getParent().equals(root);
            return reserved && dir.getFileName().toString().startsWith(".")
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            String name = nameOf(file);
            if (attrs.isRegularFile() && name.startsWith(prefix) && !name.startsWith(".")) {
              found.add(new BlobInfo(name, attrs.size(), attrs.lastModifiedTime().toInstant()));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE; // deleted while we walked
            }
            throw e;
          }
        });
    found.sort(Comparator.comparing(BlobInfo::name));
    return found;
  }

  @Override
  public BlobInfo stat(String name) throws IOException {
    BasicFileAttributes attrs = attributes(name);
    return new BlobInfo(name, attrs.size(), attrs.lastModifiedTime().toInstant());
  }

  @Override
  public void delete(String name) throws IOException {
    Path file = path(name);
    ReentrantLock lock = stripe(name);
    lock.lock();
    try {
      attributes(name);
      Retention retention = retentions.read(name);
      if (retention.retainedAt(clock.instant())) {
        throw new BlobRetainedException(name, retention);
      }
      if (!FileSync.deleteIfExists(file)) {
        throw new BlobNotFoundException(name);
      }
      FileSync.syncDirectory(Objects.requireNonNull(file.getParent()));
      retentions.remove(name);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Retention retention(String name) throws IOException {
    attributes(name);
    return retentions.read(name);
  }

  @Override
  public Retention extendRetention(String name, Retention.Mode mode, Instant until)
      throws IOException {
    path(name);
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(until, "until");
    ReentrantLock lock = stripe(name);
    lock.lock();
    try {
      attributes(name);
      Retention current = retentions.read(name);
      if (mode == Retention.Mode.NONE || !until.isAfter(current.until())) {
        return current;
      }
      sweep.once();
      try {
        retentions.add(name, Retention.of(current.isNone() ? mode : current.mode(), until));
      } catch (IOException e) {
        throw refused(name, 0, e);
      }
      return retentions.read(name);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public String describe() {
    return root.toString();
  }

  @Override
  public String toString() {
    return "FilesystemBlobStore[" + root + "]";
  }

  private Path path(String name) {
    return root.resolve(BlobNames.check(name));
  }

  private String nameOf(Path file) {
    return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }

  private BasicFileAttributes attributes(String name) throws IOException {
    try {
      BasicFileAttributes attrs =
          Files.readAttributes(path(name), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attrs.isRegularFile()) {
        return attrs;
      }
    } catch (NoSuchFileException e) {
      // fall through
    } catch (FileSystemException e) {
      Refusals.checkRoot(root);
      throw e;
    }
    throw new BlobNotFoundException(name);
  }

  private static ReentrantLock stripe(String name) {
    return STRIPES[Math.floorMod(name.hashCode(), STRIPES.length)];
  }
}
