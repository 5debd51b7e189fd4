package dev.stele.repo;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.BlobVersion;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Reads that fall back to older versions of a blob when its current version fails verification, on
 * stores that keep versions ({@link dev.stele.blob.Capabilities#pointInTime()}).
 *
 * <p>Someone holding the store's credentials can overwrite a key (a new current version) or hide it
 * behind a delete marker. Every blob verifies itself, so an overwrite is detected; this class then
 * tries the older versions, newest first, and uses the first that verifies, with a warning naming
 * the blob and the version. It is only asked about names the repository has reason to believe exist
 * (listed, or named by an index), so a name hidden by a delete marker is recovered when an index
 * names it (packs) but not when only a listing would have found it (snapshots, indexes,
 * tombstones): the point-in-time view ({@link BlobStore#asOf}) recovers those.
 *
 * <p>Concurrency: thread-safe.
 */
final class VersionedReads {
  /** Verifies bytes and turns them into a result; throws if they do not verify. */
  interface Check<T> {
    T apply(byte[] bytes) throws IOException;
  }

  private final BlobStore store;
  private final Consumer<String> warnings;
  private final boolean versioned;

  /** The version that last verified, per name, so a damaged pack costs one look-up. */
  private final Map<String, String> goodVersions = new ConcurrentHashMap<>();

  private final Map<String, Boolean> warned = new ConcurrentHashMap<>();

  VersionedReads(BlobStore store, Consumer<String> warnings) {
    this.store = store;
    this.warnings = warnings;
    this.versioned = store.capabilities().pointInTime();
  }

  /** True for the failures an older version may cure: damaged, missing or cut-short bytes. */
  static boolean recoverable(IOException e) {
    return e instanceof CorruptBlobException
        || e instanceof BlobNotFoundException
        || e instanceof EOFException;
  }

  /** Reads the whole of {@code name} and checks it; falls back to older versions on failure. */
  <T> T read(String name, Check<T> check) throws IOException {
    try {
      return check.apply(store.read(name));
    } catch (IOException e) {
      return fallback(name, e, -1, 0, check);
    }
  }

  /** Reads a range of {@code name} and checks it; falls back to older versions on failure. */
  <T> T read(String name, long offset, int length, Check<T> check) throws IOException {
    try {
      return check.apply(store.read(name, offset, length));
    } catch (IOException e) {
      return fallback(name, e, offset, length, check);
    }
  }

  /**
   * After {@code failure} reading {@code name} (whole if {@code offset} is negative), tries its
   * older versions; rethrows {@code failure} if none verifies or the store keeps no versions.
   */
  <T> T fallback(String name, IOException failure, long offset, int length, Check<T> check)
      throws IOException {
    if (!versioned || !recoverable(failure)) {
      throw failure;
    }
    List<BlobVersion> versions;
    try {
      versions = store.versions(name);
    } catch (IOException | UnsupportedOperationException e) {
      failure.addSuppressed(e);
      throw failure;
    }
    String known = goodVersions.get(name);
    if (known != null) {
      T result = attempt(name, known, offset, length, check);
      if (result != null) {
        return result;
      }
    }
    boolean current = true;
    for (BlobVersion v : versions) {
      boolean skip = current && !v.deleteMarker(); // the current version is the one that failed
      current = false;
      if (skip || v.deleteMarker() || v.versionId().equals(known)) {
        continue;
      }
      T result = attempt(name, v.versionId(), offset, length, check);
      if (result != null) {
        goodVersions.put(name, v.versionId());
        if (warned.putIfAbsent(name + " " + v.versionId(), Boolean.TRUE) == null) {
          warnings.accept(
              name
                  + (failure instanceof BlobNotFoundException
                      ? " is missing at its current version"
                      : " failed verification at its current version")
                  + "; read version "
                  + v.versionId()
                  + " from "
                  + v.created());
        }
        return result;
      }
    }
    throw failure;
  }

  private <T> T attempt(String name, String version, long offset, int length, Check<T> check) {
    try {
      byte[] bytes =
          offset < 0
              ? store.readVersion(name, version)
              : store.readVersion(name, version, offset, length);
      return check.apply(bytes);
    } catch (IOException | RuntimeException e) {
      return null; // this version does not verify either; try an older one
    }
  }
}
