package dev.stele.repo;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads every byte of a pack or key blob and says what is wrong with it. Each byte of a pack is
 * covered: the magic is compared, each chunk opens under its own key, the footer opens and must
 * list what the index says the pack holds, the trailer must point at the footer. {@link
 * #missingOrShort} is the check that reads nothing: the store's listing against the index.
 */
public final class PackCheck {
  private PackCheck() {}

  /** The most bytes of a pack {@link #read} holds at once, unless one chunk is longer. */
  static final int WINDOW = 4 << 20;

  /** Problems with pack {@code name} whose whole content is {@code bytes}; empty if none. */
  public static List<String> check(
      Repository repo, String name, byte[] bytes, List<PackEntry> indexed) throws IOException {
    return check(
        repo,
        name,
        bytes.length,
        (offset, length) -> Arrays.copyOfRange(bytes, (int) offset, (int) offset + length),
        indexed);
  }

  /**
   * Problems with pack {@code info} of the repository's store, read by range in windows of whole
   * chunks of at most 4 MiB ({@link #WINDOW}) rather than whole, so that a worker holds at most a
   * quarter of a pack at a time. It reads each byte once, as a whole read does, in a few more
   * requests.
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
        indexed);
  }

  private static List<String> check(
      Repository repo, String name, long size, Pack.Range read, List<PackEntry> indexed)
      throws IOException {
    List<String> problems = new ArrayList<>();
    if (size < Pack.MAGIC.length + Pack.TRAILER
        || !Arrays.equals(read.read(0, Pack.MAGIC.length), Pack.MAGIC)) {
      problems.add("corrupted blob " + name + ": pack header damaged");
      return problems;
    }
    List<PackEntry> footer;
    try {
      footer = Pack.footer(name, repo.blobKey(), size, read);
    } catch (BlobNotFoundException e) {
      throw e;
    } catch (IOException e) {
      problems.add(e.getMessage());
      footer = null;
    }
    List<PackEntry> entries = footer != null ? footer : indexed;
    if (entries == null) {
      return problems;
    }
    if (footer != null
        && indexed != null
        && !new HashSet<>(footer).equals(new HashSet<>(indexed))) {
      problems.add("corrupted blob " + name + ": footer does not list what the index says");
    }
    List<PackEntry> inside = new ArrayList<>();
    for (PackEntry e : entries) {
      if (e.offset() + (long) e.length() > size) {
        problems.add("corrupted blob " + name + ": chunk " + e.id().shortHex() + " past the end");
      } else {
        inside.add(e);
      }
    }
    inside.sort(Comparator.comparingInt(PackEntry::offset));
    int first = 0;
    while (first < inside.size()) {
      long start = inside.get(first).offset();
      long end = start + inside.get(first).length();
      int last = first + 1;
      while (last < inside.size()) {
        PackEntry e = inside.get(last);
        long reach = Math.max(end, e.offset() + (long) e.length());
        if (reach - start > WINDOW) {
          break;
        }
        end = reach;
        last++;
      }
      byte[] window = read.read(start, (int) (end - start));
      for (PackEntry e : inside.subList(first, last)) {
        try {
          repo.checkChunk(name, e, window, (int) (e.offset() - start));
        } catch (IOException x) {
          problems.add(x.getMessage());
        }
      }
      first = last;
    }
    return problems;
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
