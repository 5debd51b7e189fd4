package dev.stele.repo;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.crypto.Aead;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import org.jspecify.annotations.Nullable;

/**
 * The pack layout: many sealed chunks in one blob, named {@code packs/<32 random hex digits>}.
 *
 * <pre>
 * "STLPACK1"                          8 bytes
 * sealed chunk ...                    see ChunkCodec
 * footer: Aead(entry table)          blob subkey, AAD = the pack name (UTF-8)
 * footer length u32 | "STLE"          8 bytes
 * entry table: count u32, then per entry: id[32] type u8 offset u32 length u32 rawLength u32
 * </pre>
 *
 * All integers big-endian. The footer lets an index be rebuilt from the packs alone.
 */
public final class Pack {
  public static final String PREFIX = "packs/";
  static final byte[] MAGIC = "STLPACK1".getBytes(StandardCharsets.US_ASCII);
  static final byte[] END = "STLE".getBytes(StandardCharsets.US_ASCII);
  static final int TRAILER = 8;
  private static final SecureRandom RANDOM = new SecureRandom();

  private Pack() {}

  static String newName() {
    byte[] random = new byte[16];
    RANDOM.nextBytes(random);
    return PREFIX + HexFormat.of().formatHex(random);
  }

  /**
   * Builds one pack in a spool file, so that a pack in the making costs no memory: sealed chunks
   * are appended as they come, through a small buffer, and {@link #finish} adds the footer and
   * trailer. Where no spool file can be made (a read-only container without a temporary directory)
   * it builds the pack in memory instead. The caller stores it with {@link #storeIn} and then
   * {@link #discard}s it.
   *
   * <p>Concurrency: not thread-safe; the pack writer confines it.
   */
  static final class Builder {
    private static final int BUFFER = 256 << 10;
    private static final FileAttribute<Set<PosixFilePermission>> READABLE =
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-"));
    private final String name = newName();
    private final List<PackEntry> entries = new ArrayList<>();
    private final @Nullable Path file;
    private final @Nullable ByteArrayOutputStream memory;
    private final OutputStream out;
    private int size;

    /**
     * A pack built in a new file in {@code spoolDirectory}. It is readable as the umask allows, as
     * a stored pack is: a local store may take the file over as the pack itself. Its content is
     * sealed, as the pack's is.
     */
    static Builder spooled(Path spoolDirectory) throws IOException {
      Files.createDirectories(spoolDirectory);
      boolean posix =
          spoolDirectory.getFileSystem().supportedFileAttributeViews().contains("posix");
      Path file =
          Files.createTempFile(
              spoolDirectory,
              "stele-pack-",
              ".tmp",
              posix ? new FileAttribute<?>[] {READABLE} : new FileAttribute<?>[0]);
      try {
        return new Builder(
            file, null, new BufferedOutputStream(Files.newOutputStream(file), BUFFER));
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(file);
        throw e;
      }
    }

    /** A pack built in memory. */
    static Builder inMemory() throws IOException {
      ByteArrayOutputStream memory = new ByteArrayOutputStream(1 << 20);
      return new Builder(null, memory, memory);
    }

    private Builder(@Nullable Path file, @Nullable ByteArrayOutputStream memory, OutputStream out)
        throws IOException {
      this.file = file;
      this.memory = memory;
      this.out = out;
      out.write(MAGIC);
      size = MAGIC.length;
    }

    String name() {
      return name;
    }

    int size() {
      return size;
    }

    boolean isEmpty() {
      return entries.isEmpty();
    }

    List<PackEntry> entries() {
      return entries;
    }

    /**
     * Appends {@code sealed[0, entry.length())} as {@code entry} (whose offset is ignored). Written
     * in slices of at most {@link #BUFFER} bytes: a channel writes a heap array through a temporary
     * native buffer of the write's size, kept per thread, so a whole 4 MiB chunk would pin 4 MiB of
     * native memory in every sealing thread.
     */
    void add(PackEntry entry, byte[] sealed) throws IOException {
      for (int done = 0; done < entry.length(); done += BUFFER) {
        out.write(sealed, done, Math.min(BUFFER, entry.length() - done));
      }
      entries.add(new PackEntry(entry.id(), entry.type(), size, entry.length(), entry.rawLength()));
      size += entry.length();
    }

    /** Ends the pack with its sealed footer and trailer. */
    void finish(byte[] blobKey) throws IOException {
      ByteBuffer table = ByteBuffer.allocate(4 + entries.size() * PackEntry.ENCODED_BYTES);
      table.putInt(entries.size());
      for (PackEntry e : entries) {
        IndexCodec.putEntry(table, e);
      }
      byte[] footer = Aead.seal(blobKey, name.getBytes(StandardCharsets.UTF_8), table.array());
      out.write(footer);
      out.write(ByteBuffer.allocate(4).putInt(footer.length).array());
      out.write(END);
      out.close();
    }

    /** Stores the finished pack as {@code name} in {@code store}. */
    void storeIn(BlobStore store, Retention retention) throws IOException {
      if (file != null) {
        store.create(name, file, retention);
      } else {
        store.create(name, Objects.requireNonNull(memory).toByteArray(), retention);
      }
    }

    /**
     * {@code e}, a failure to write this pack, as {@code store} reports it: where the spool file is
     * the store's own storage, the refusal a failed create would give.
     */
    IOException refusal(BlobStore store, IOException e) {
      return file == null ? e : store.spoolRefusal(name, file, e);
    }

    /** Removes the spool file, finished or not. */
    void discard() {
      try {
        out.close();
      } catch (IOException ignored) {
        // the file goes anyway
      }
      try {
        if (file != null) {
          Files.deleteIfExists(file);
        }
      } catch (IOException ignored) {
        // a spool file left in the temporary directory costs only space
      }
    }
  }

  /** The length of the sealed footer, from the pack's last {@value #TRAILER} bytes. */
  static int footerLength(String name, byte[] trailer) throws IOException {
    if (trailer.length != TRAILER || !Arrays.equals(trailer, 4, 8, END, 0, 4)) {
      throw new CorruptBlobException(name, "pack trailer missing");
    }
    int length = ByteBuffer.wrap(trailer).getInt();
    if (length < Aead.OVERHEAD + 4) {
      throw new CorruptBlobException(name, "pack footer length " + length + " invalid");
    }
    return length;
  }

  /** Reads {@code length} bytes of one pack from {@code offset}. */
  @FunctionalInterface
  interface Range {
    byte[] read(long offset, int length) throws IOException;
  }

  /**
   * The entries of pack {@code name}, {@code size} bytes long, from its trailer and footer: the one
   * reader of a footer, whether the pack is read whole (verify, repair) or by range (recovery).
   *
   * @throws CorruptBlobException if the pack is too short or its trailer or footer is damaged
   */
  static List<PackEntry> footer(String name, byte[] blobKey, long size, Range read)
      throws IOException {
    if (size < MAGIC.length + TRAILER) {
      throw new CorruptBlobException(name, "too short for a pack");
    }
    int length = footerLength(name, read.read(size - TRAILER, TRAILER));
    if (length > size - TRAILER - MAGIC.length) {
      throw new CorruptBlobException(name, "pack footer longer than the pack");
    }
    long start = size - TRAILER - length;
    return readFooter(name, blobKey, read.read(start, length), start);
  }

  /** Opens a sealed footer and returns the pack's entries. */
  static List<PackEntry> readFooter(String name, byte[] blobKey, byte[] footer, long packSize)
      throws IOException {
    byte[] table;
    try {
      table = Aead.open(blobKey, name.getBytes(StandardCharsets.UTF_8), footer);
    } catch (AEADBadTagException e) {
      throw new CorruptBlobException(name, "pack footer fails authentication");
    }
    ByteBuffer in = ByteBuffer.wrap(table);
    int count = in.getInt();
    if (count < 0 || table.length != 4 + (long) count * PackEntry.ENCODED_BYTES) {
      throw new CorruptBlobException(name, "pack footer malformed");
    }
    List<PackEntry> entries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      PackEntry e;
      try {
        e = IndexCodec.checkEntry(name, name, IndexCodec.getEntry(in));
      } catch (IllegalArgumentException unknownType) {
        throw new CorruptBlobException(name, "pack footer malformed", unknownType);
      }
      if (e.offset() + (long) e.length() > packSize) {
        throw new CorruptBlobException(name, "pack entry out of bounds");
      }
      entries.add(e);
    }
    return entries;
  }
}
