package dev.stele.blob;

import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * A flat namespace of named, immutable byte strings: the only way Stele touches storage.
 *
 * <p>The contract every implementation keeps, and {@code BlobStoreContractTest} checks:
 *
 * <ul>
 *   <li>{@link #create} publishes atomically and <b>fails with {@link BlobExistsException} if the
 *       name exists</b>. It never replaces. After it returns, the blob is durable.
 *   <li>{@link #read} returns exactly the bytes created; a missing name throws {@link
 *       BlobNotFoundException}.
 *   <li>{@link #list} returns every published name under a prefix, in lexicographic order, never a
 *       half-written one.
 *   <li>{@link #delete} removes a blob whose retention has expired. A blob still retained throws
 *       {@link BlobRetainedException}, never a silent success. Only maintenance calls it.
 *   <li>{@link #extendRetention} only ever lengthens; asking for an earlier instant is a no-op that
 *       returns the retention in force.
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

  /** The whole blob. */
  byte[] read(String name) throws IOException;

  /**
   * {@code length} bytes from {@code offset}.
   *
   * @throws BlobNotFoundException if the blob is missing
   * @throws java.io.EOFException if the range goes past the end of the blob
   */
  byte[] read(String name, long offset, int length) throws IOException;

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

  /** What this store enforces, detected rather than assumed. */
  Capabilities capabilities();

  /** A short human description, such as the directory or bucket URL. */
  String describe();

  @Override
  default void close() throws IOException {}
}
