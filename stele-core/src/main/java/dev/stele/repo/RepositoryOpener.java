package dev.stele.repo;

import dev.stele.blob.Aside;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobStore;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Opens a repository: reads its format blob, then tries the password on each key blob. */
final class RepositoryOpener {
  private RepositoryOpener() {}

  static Repository open(BlobStore store, char[] password, Clock clock) throws IOException {
    // The key listing does not depend on the format blob: two round trips at once.
    Aside<List<BlobInfo>> keyListing =
        Aside.start("stele-list-keys", () -> store.list(KeyBlob.PREFIX));
    byte[] formatBytes;
    try {
      formatBytes = store.read(RepositoryFormat.BLOB);
    } catch (BlobNotFoundException e) {
      throw new NotARepositoryException(
          store.describe() + " is not a Stele repository (no " + RepositoryFormat.BLOB + ")");
    }
    boolean versioned = store.capabilities().pointInTime();
    List<String> warnings = new ArrayList<>();
    VersionedReads reads = new VersionedReads(store, warnings::add);
    RepositoryFormat parsed = null;
    try {
      parsed = RepositoryFormat.parse(formatBytes);
    } catch (NotARepositoryException e) {
      if (!versioned) {
        throw e;
      }
      // perhaps overwritten: the key blob says which version is the real one
    }
    List<BlobInfo> keys = keyListing.get();
    if (keys.isEmpty()) {
      throw new NotARepositoryException(store.describe() + " has no key blobs");
    }
    CorruptBlobException corrupt = null;
    UnsupportedVersionException newer = null;
    for (BlobInfo info : keys) {
      KeyBlob.Opened opened;
      try {
        opened = reads.read(info.name(), bytes -> KeyBlob.open(info.name(), bytes, password));
      } catch (CorruptBlobException e) {
        corrupt = e;
        continue;
      } catch (UnsupportedVersionException e) {
        newer = e; // perhaps this password's, but only a newer Stele can tell
        continue;
      }
      if (opened == null) {
        continue;
      }
      RepositoryFormat format = parsed;
      if (parsed == null || !opened.formatHash().equals(Sha256.of(formatBytes))) {
        Id sealed = opened.formatHash();
        format =
            reads.fallback(
                RepositoryFormat.BLOB,
                new CorruptBlobException(
                    RepositoryFormat.BLOB,
                    "content differs from what key " + info.name() + " sealed"),
                -1,
                0,
                bytes -> {
                  if (!Sha256.of(bytes).equals(sealed)) {
                    throw new CorruptBlobException(RepositoryFormat.BLOB, "not the sealed version");
                  }
                  return RepositoryFormat.parse(bytes);
                });
      }
      Repository repo = new Repository(store, format, opened.key(), info.name(), clock);
      warnings.forEach(repo::warn);
      if (repo.tombstoned().contains(info.name())) {
        throw new WrongPasswordException(store.describe() + " (this password's key was removed)");
      }
      return repo;
    }
    if (newer != null) {
      throw new UnsupportedVersionException(
          "no key blob this Stele reads opens with this password, and "
              + newer.getMessage()
              + " (a wrong password, or this password's key was added by a newer Stele)",
          newer.blob(),
          newer.version());
    }
    if (corrupt != null) {
      throw new WrongPasswordException(store.describe() + " (and " + corrupt.getMessage() + ")");
    }
    throw new WrongPasswordException(store.describe());
  }

  static Id formatHash(BlobStore store) throws IOException {
    return Sha256.of(store.read(RepositoryFormat.BLOB));
  }
}
