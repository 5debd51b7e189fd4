package dev.stele.repo;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Reads every byte of a pack or key blob and says what is wrong with it. Each byte of a pack is
 * covered: the magic is compared, each chunk opens under its own key, the chunks follow one another
 * with nothing between them, the footer opens and must list what the index says the pack holds, the
 * trailer must point at the footer, and the pack ends there. {@link #missingOrShort} is the check
 * that reads nothing: the store's listing against the index.
 */
public final class PackCheck {
  private PackCheck() {}

  /** Problems with pack {@code name} whose whole content is {@code bytes}; empty if none. */
  public static List<String> check(
      Repository repo, String name, byte[] bytes, List<PackEntry> indexed) throws IOException {
    return check(
        repo,
        name,
        bytes.length,
        (offset, length) -> Arrays.copyOfRange(bytes, (int) offset, (int) offset + length),
        () -> new ByteArrayInputStream(bytes),
        indexed);
  }

  /**
   * Problems with pack {@code info} of the repository's store, read in one sequential pass ({@link
   * dev.stele.blob.BlobStore#openStream}): one request per pack on S3, each chunk read into a
   * buffer this thread reuses, so that a worker holds about one chunk, not the pack. The chunks are
   * found by the index's entries, and the footer, at the end of the pass, must list the same; a
   * pack no index names has its footer read first, by range.
   *
   * @throws BlobNotFoundException if the pack is gone (deleted by a concurrent maintenance run)
   */
  public static List<String> read(Repository repo, BlobInfo info, List<PackEntry> indexed)
      throws IOException {
    return check(
        repo,
        info.name(),
        info.size(),
        (offset, length) -> repo.store().read(info.name(), offset, length),
        () -> repo.store().openStream(info.name()),
        indexed);
  }

  /** Opens a pack's bytes from the start. */
  @FunctionalInterface
  private interface Source {
    InputStream open() throws IOException;
  }

  private static List<String> check(
      Repository repo,
      String name,
      long size,
      Pack.Range range,
      Source source,
      @Nullable List<PackEntry> indexed)
      throws IOException {
    List<String> problems = new ArrayList<>();
    if (size < Pack.MAGIC.length + Pack.TRAILER) {
      problems.add("corrupted blob " + name + ": pack header damaged");
      return problems;
    }
    List<PackEntry> entries = indexed;
    if (entries == null) {
      // Nothing else says where the chunks are: the footer first.
      try {
        entries = Pack.footer(name, repo.blobKey(), size, range);
      } catch (BlobNotFoundException e) {
        throw e;
      } catch (IOException e) {
        boolean header = Arrays.equals(range.read(0, Pack.MAGIC.length), Pack.MAGIC);
        problems.add(header ? e.getMessage() : "corrupted blob " + name + ": pack header damaged");
        return problems;
      }
    }
    try (InputStream in = source.open()) {
      new Pass(repo, name, size, in, problems).run(entries, indexed);
    }
    return problems;
  }

  /**
   * A buffer each thread reuses from pack to pack, grown (to powers of two) to hold the longest
   * chunk or footer seen.
   */
  private static final class Buffer {
    byte[] bytes = new byte[64 << 10];
  }

  private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(Buffer::new);

  /** One sequential pass over a pack: {@link #run}. */
  private static final class Pass {
    private final Repository repo;
    private final String name;
    private final long size;
    private final InputStream in;
    private final List<String> problems;
    private final Buffer buffer = BUFFER.get();
    private long position;

    Pass(Repository repo, String name, long size, InputStream in, List<String> problems) {
      this.repo = repo;
      this.name = name;
      this.size = size;
      this.in = in;
      this.problems = problems;
    }

    /**
     * Reads the pack from its start to its end, checking the chunks {@code entries} names; the
     * footer found at the end must list what {@code indexed} does (null: the pack is in no index).
     */
    void run(List<PackEntry> entries, @Nullable List<PackEntry> indexed) throws IOException {
      if (!next(Pack.MAGIC.length)
          || !Arrays.equals(buffer.bytes, 0, Pack.MAGIC.length, Pack.MAGIC, 0, Pack.MAGIC.length)) {
        problem("pack header damaged");
        return;
      }
      List<PackEntry> inside = new ArrayList<>();
      for (PackEntry e : new LinkedHashSet<>(entries)) {
        if (e.offset() + (long) e.length() > size) {
          problem("chunk " + e.id().shortHex() + " past the end");
        } else {
          inside.add(e);
        }
      }
      inside.sort(Comparator.comparingInt(PackEntry::offset));
      for (PackEntry e : inside) {
        if (e.offset() < position) {
          problem("chunk " + e.id().shortHex() + " overlaps what comes before it");
          continue;
        }
        if (!skipTo(e.offset()) || !next(e.length())) {
          return;
        }
        try {
          repo.checkChunk(name, e, buffer.bytes, 0);
        } catch (IOException x) {
          problems.add(x.getMessage());
        }
      }
      long chunksEnd = position;
      // The rest is the footer and the trailer: small, read whole.
      if (!next(Math.toIntExact(size - position))) {
        return;
      }
      if (in.read() >= 0) {
        problem("longer than listed (" + size + " bytes)");
      }
      footer(chunksEnd, indexed);
    }

    /** Checks the trailer and footer, read into the buffer from {@code chunksEnd} to the end. */
    private void footer(long chunksEnd, @Nullable List<PackEntry> indexed) {
      byte[] tail = buffer.bytes;
      int tailLength = Math.toIntExact(size - chunksEnd);
      List<PackEntry> footer;
      try {
        if (tailLength < Pack.TRAILER) {
          throw new CorruptBlobException(name, "pack trailer missing");
        }
        int length =
            Pack.footerLength(
                name, Arrays.copyOfRange(tail, tailLength - Pack.TRAILER, tailLength));
        int gap = tailLength - Pack.TRAILER - length;
        if (gap < 0) {
          throw new CorruptBlobException(name, "pack footer overlaps its chunks");
        }
        if (gap > 0) {
          problem(gap + " bytes at offset " + chunksEnd + " belong to no chunk");
        }
        footer =
            Pack.readFooter(
                name, repo.blobKey(), Arrays.copyOfRange(tail, gap, gap + length), chunksEnd + gap);
      } catch (IOException e) {
        problems.add(e.getMessage());
        return;
      }
      if (indexed != null && !new HashSet<>(footer).equals(new HashSet<>(indexed))) {
        problem("footer does not list what the index says");
      }
    }

    /** Reads on to {@code offset}; bytes before it belong to no chunk. */
    private boolean skipTo(long offset) throws IOException {
      if (offset == position) {
        return true;
      }
      long at = position;
      if (!next(Math.toIntExact(offset - position))) {
        return false;
      }
      problem((offset - at) + " bytes at offset " + at + " belong to no chunk");
      return true;
    }

    /**
     * Reads the next {@code length} bytes into the start of the buffer; false, with the problem
     * noted, if the pack ends before them.
     */
    private boolean next(int length) throws IOException {
      if (buffer.bytes.length < length) {
        buffer.bytes = new byte[ChunkCodec.grown(length)];
      }
      int n = in.readNBytes(buffer.bytes, 0, length);
      position += n;
      if (n < length) {
        problem("ends at byte " + position + ", before its listed size " + size);
        return false;
      }
      return true;
    }

    private void problem(String what) {
      problems.add("corrupted blob " + name + ": " + what);
    }
  }

  /**
   * The entries of pack {@code name} whose whole content is {@code bytes}, from its footer.
   *
   * @throws CorruptBlobException if the header, trailer or footer is damaged
   */
  public static List<PackEntry> footer(Repository repo, String name, byte[] bytes)
      throws IOException {
    return Pack.footer(
        name,
        repo.blobKey(),
        bytes.length,
        (offset, length) -> Arrays.copyOfRange(bytes, (int) offset, (int) offset + length));
  }

  /** One listing of the store's packs, by name. */
  public static Map<String, BlobInfo> listPacks(BlobStore store) throws IOException {
    Map<String, BlobInfo> listed = new TreeMap<>();
    for (BlobInfo info : store.list(Pack.PREFIX)) {
      listed.put(info.name(), info);
    }
    return listed;
  }

  /**
   * The packs {@code index} names that {@code listed} (the store's listing of packs, by name) shows
   * missing or shorter than their entries reach, each with one line saying which. It costs only the
   * listing, so a backup can afford it: such a pack is damaged without reading a byte of it.
   */
  public static Map<String, String> missingOrShort(Index index, Map<String, BlobInfo> listed) {
    Map<String, String> damaged = new TreeMap<>();
    for (var pack : index.packs().entrySet()) {
      BlobInfo info = listed.get(pack.getKey());
      if (info == null) {
        damaged.put(pack.getKey(), "pack " + pack.getKey() + " is named by the index but missing");
        continue;
      }
      long end = 0;
      for (PackEntry e : pack.getValue()) {
        end = Math.max(end, e.offset() + (long) e.length());
      }
      if (info.size() < end) {
        damaged.put(
            pack.getKey(), "corrupted blob " + pack.getKey() + ": shorter than its entries");
      }
    }
    return damaged;
  }

  /** Problems with the key blobs: each must match its name and parse. */
  public static List<String> checkKeys(Repository repo) throws IOException {
    List<String> problems = new ArrayList<>();
    for (BlobInfo info : repo.store().list(KeyBlob.PREFIX)) {
      byte[] blob = repo.store().read(info.name());
      if (!info.name().equals(KeyBlob.PREFIX + Sha256.of(blob).hex())) {
        problems.add("corrupted blob " + info.name() + ": content does not match its name");
        continue;
      }
      try {
        KeyBlob.describe(info.name(), blob);
      } catch (CorruptBlobException e) {
        problems.add(e.getMessage());
      }
    }
    return problems;
  }
}
