package dev.stele.blob;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A flat namespace of named, immutable byte strings: the only way Stele touches storage.
 *
 * <p>The contract every implementation keeps, and {@code BlobStoreContractTest} checks:
 *
 * <ul>
 *   <li>{@link #create} publishes atomically and <b>fails with {@link BlobExistsException} if the
 *       name exists</b>. It never replaces. After it returns, the blob is durable.
 *   <li>{@link #read} returns exactly the bytes created; a missing name throws {@link
 *       BlobNotFoundException}. {@link #openStream} yields the same bytes, then ends; it never ends
 *       early.
 *   <li>{@link #list} returns every published name under a prefix, in lexicographic order, never a
 *       half-written one.
 *   <li>{@link #delete} removes a blob whose retention has expired. A blob still retained throws
 *       {@link BlobRetainedException}, never a silent success. Only maintenance calls it.
 *   <li>{@link #extendRetention} only ever lengthens; asking for an earlier instant is a no-op that
 *       returns the retention in force.
 *   <li>Point in time ({@link #asOf}, {@link #versions}, {@link #readVersion}) is optional: a store
 *       whose {@link Capabilities#pointInTime()} is true supports it and passes {@code
 *       VersionedBlobStoreContractTest}; the others keep the defaults (no versions, unsupported).
 *       On a versioned store, {@link #retention} and {@link #extendRetention} concern the current
 *       version of a name.
 * </ul>
 *
 * <p>Names are made of {@code [A-Za-z0-9._-]} segments separated by {@code /}; no segment is empty,
 * {@code .} or {@code ..}, and no name starts with {@code .}. See {@link BlobNames}. Every method
 * throws {@link IllegalArgumentException} for an invalid name. A name should not also be a leading
 * run of segments of another name ({@code a} and {@code a/b}): a filesystem cannot hold both, and a
 * store may refuse the second create with an {@link IOException}.
 *
 * <p>Concurrency: implementations are safe for use by many threads at once, and by several
 * processes sharing the same storage.
 */
public interface BlobStore extends Closeable {

  /**
   * Creates {@code name} holding {@code data}, retained as {@code retention} says.
   *
   * @throws BlobExistsException if {@code name} already exists (its content is left untouched)
   */
  void create(String name, byte[] data, Retention retention) throws IOException;

  /**
   * As {@link #create(String, byte[], Retention)}, with the content read from {@code file}: for a
   * large blob (a pack) that was written to a spool file rather than held in memory. The file must
   * not change from this call on; the caller may delete it afterwards. A store that can copy from a
   * file without holding it whole does so, and one on the same filesystem may take the file over
   * instead (a hard link, its modes made read-only); this default reads it into memory.
   */
  default void create(String name, Path file, Retention retention) throws IOException {
    create(name, Files.readAllBytes(file), retention);
  }

  /**
   * Where a caller should build a large blob before {@link #create(String, Path, Retention)}, so
   * that the store takes the file over rather than copying it; null (this default) where it makes
   * no difference.
   */
  default @Nullable Path spoolDirectory() {
    return null;
  }

  /**
   * What to report when writing {@code name}'s content into {@code file}, in {@link
   * #spoolDirectory}, failed with {@code e}: the refusal a failed create of {@code name} would give
   * (a full disk, a read-only filesystem), since the spool is the store's own storage. This
   * default, and any file elsewhere, gives {@code e}.
   */
  default IOException spoolRefusal(String name, Path file, IOException e) {
    return e;
  }

  /** The whole blob. */
  byte[] read(String name) throws IOException;

  /**
   * {@code length} bytes from {@code offset}.
   *
   * @throws BlobNotFoundException if the blob is missing
   * @throws java.io.EOFException if the range goes past the end of the blob
   */
  byte[] read(String name, long offset, int length) throws IOException;

  /**
   * {@link #read(String, long, int)} into {@code into[0, length)} when {@code into} is that long,
   * else into a new array; returns the array read into. A reader that goes through many ranges one
   * at a time (restore) reads them without allocating where the store can; this default allocates.
   */
  default byte[] read(String name, long offset, int length, byte[] into) throws IOException {
    return read(name, offset, length);
  }

  /**
   * The whole blob as a stream, for a reader that goes through a large blob once and keeps little
   * of it (verify reads every pack so): one sequential read, not the blob held whole. The stream
   * yields exactly the bytes created and then ends; should the store fail to deliver them all (a
   * connection lost for good, a file that shrank), a read throws an {@link IOException} rather than
   * ending early. The caller closes it; closing before the end is allowed.
   *
   * <p>Concurrency: the stream is for one thread; the store stays safe for many.
   *
   * @throws BlobNotFoundException if the blob is missing (when opened, not on the first read)
   */
  InputStream openStream(String name) throws IOException;

  /** Every blob whose name starts with {@code prefix}, sorted by name. */
  List<BlobInfo> list(String prefix) throws IOException;

  /** Size and creation time of one blob. */
  BlobInfo stat(String name) throws IOException;

  /**
   * Removes {@code name}.
   *
   * @throws BlobRetainedException if its retention has not expired
   * @throws BlobNotFoundException if it does not exist
   */
  void delete(String name) throws IOException;

  /** The retention in force for {@code name}; {@link Retention#NONE} if it has none. */
  Retention retention(String name) throws IOException;

  /**
   * Lengthens the retention of {@code name} to {@code until} if that is later than what is in
   * force; never shortens it. The mode of a retained blob stays; a blob with no retention gets
   * {@code mode}.
   *
   * @return the retention in force afterwards
   */
  Retention extendRetention(String name, Retention.Mode mode, Instant until) throws IOException;

  /**
   * A read-only view of this store as it was at {@code instant}: each name reads as its newest
   * version not newer than {@code instant} (created at or before it); a name whose newest such
   * version is a delete marker, or that has no such version, is absent. Listings, {@code stat},
   * ranged reads and {@link #retention} (of the version in view) answer accordingly; {@link
   * #versions} lists only versions not newer than {@code instant}, and {@link #readVersion} reads
   * any of those. {@link #create}, {@link #delete} and {@link #extendRetention} of a view throw
   * {@link UnsupportedOperationException}. {@code asOf} of a view is the view at the earlier of the
   * two instants. Closing a view releases nothing: close the store it came from.
   *
   * <p>Only stores whose {@link Capabilities#pointInTime()} is true support it; a versioned S3
   * bucket does, because every overwrite and every delete without a version id keeps the earlier
   * version. That is what makes a repository tampered with by someone holding the credentials
   * restorable in full (write-once rule 3).
   *
   * @throws UnsupportedOperationException if this store keeps no versions
   */
  default BlobStore asOf(Instant instant) {
    throw new UnsupportedOperationException("point-in-time reads need a versioned store");
  }

  /**
   * Every version of {@code name}, newest first, delete markers included; empty if the name never
   * existed or the store keeps no versions (the default). Versions written at the same instant are
   * still listed newest first, in the order the store applied them.
   */
  default List<BlobVersion> versions(String name) throws IOException {
    BlobNames.check(name);
    return List.of();
  }

  /**
   * The bytes of one version of {@code name}, as {@link #versions} named it.
   *
   * @throws BlobNotFoundException if there is no such version, or it is a delete marker
   * @throws UnsupportedOperationException if the store keeps no versions (the default)
   */
  default byte[] readVersion(String name, String versionId) throws IOException {
    throw new UnsupportedOperationException("point-in-time reads need a versioned store");
  }

  /**
   * {@code length} bytes from {@code offset} of one version of {@code name}. The default reads the
   * whole version and slices it; a store that can read a range of a version (S3 can: a ranged GET
   * with a version id) should override it.
   *
   * @throws BlobNotFoundException if there is no such version, or it is a delete marker
   * @throws java.io.EOFException if the range goes past the end of the version
   * @throws UnsupportedOperationException if the store keeps no versions
   */
  default byte[] readVersion(String name, String versionId, long offset, int length)
      throws IOException {
    byte[] whole = readVersion(name, versionId);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
    }
    if (offset + length > whole.length) {
      throw new java.io.EOFException(
          name + " version " + versionId + ": range " + offset + "+" + length + " past the end");
    }
    return java.util.Arrays.copyOfRange(whole, (int) offset, (int) offset + length);
  }

  /** What this store enforces, detected rather than assumed. */
  Capabilities capabilities();

  /** A short human description, such as the directory or bucket URL. */
  String describe();

  @Override
  default void close() throws IOException {}
}
