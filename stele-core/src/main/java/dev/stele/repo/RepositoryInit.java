package dev.stele.repo;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.chunk.ChunkerParams;
import dev.stele.crypto.KdfParams;
import dev.stele.crypto.MasterKey;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The choices made once, when a repository is created. Defaults suit a local disk; every value is
 * recorded in the format blob.
 */
public record RepositoryInit(
    Clock clock,
    ChunkerParams chunker,
    int compressionLevel,
    int packSize,
    Duration markWindow,
    Duration sweepWindow,
    Retention.Mode retentionMode,
    Duration minimumRetention,
    KdfParams kdf) {

  static final int DEFAULT_PACK_SIZE = 16 << 20;

  /**
   * zstd level 3, the level of restic's default. Level 2 cost a fifth less zstd CPU but stored 1.6%
   * more than restic on the Linux source tree (3.3% more than level 3); level 3 stores less than
   * restic on both benchmark sets (docs/performance.md, eleventh round).
   */
  static final int DEFAULT_COMPRESSION_LEVEL = 3;

  /** zstd's highest level; 0 stores chunks uncompressed. */
  static final int MAX_COMPRESSION_LEVEL = 22;

  public RepositoryInit {
    if (compressionLevel < 0 || compressionLevel > MAX_COMPRESSION_LEVEL) {
      throw new IllegalArgumentException(
          compressionLevel + " is not a zstd level: use 0 (none) to " + MAX_COMPRESSION_LEVEL);
    }
  }

  public static RepositoryInit defaults(Clock clock) {
    return new RepositoryInit(
        clock,
        ChunkerParams.DEFAULT,
        DEFAULT_COMPRESSION_LEVEL,
        DEFAULT_PACK_SIZE,
        Duration.ofHours(1),
        Duration.ofHours(6),
        Retention.Mode.NONE,
        Duration.ZERO,
        Repository.defaultKdf());
  }

  public RepositoryInit withKdf(KdfParams kdf) {
    return new RepositoryInit(
        clock,
        chunker,
        compressionLevel,
        packSize,
        markWindow,
        sweepWindow,
        retentionMode,
        minimumRetention,
        kdf);
  }

  public RepositoryInit withRetention(Retention.Mode mode, Duration minimum) {
    return new RepositoryInit(
        clock, chunker, compressionLevel, packSize, markWindow, sweepWindow, mode, minimum, kdf);
  }

  public RepositoryInit withWindows(Duration mark, Duration sweep) {
    return new RepositoryInit(
        clock,
        chunker,
        compressionLevel,
        packSize,
        mark,
        sweep,
        retentionMode,
        minimumRetention,
        kdf);
  }

  public RepositoryInit withPackSize(int bytes) {
    return new RepositoryInit(
        clock,
        chunker,
        compressionLevel,
        bytes,
        markWindow,
        sweepWindow,
        retentionMode,
        minimumRetention,
        kdf);
  }

  public RepositoryInit withChunker(ChunkerParams params) {
    return new RepositoryInit(
        clock,
        params,
        compressionLevel,
        packSize,
        markWindow,
        sweepWindow,
        retentionMode,
        minimumRetention,
        kdf);
  }

  public RepositoryInit withCompressionLevel(int level) {
    return new RepositoryInit(
        clock,
        chunker,
        level,
        packSize,
        markWindow,
        sweepWindow,
        retentionMode,
        minimumRetention,
        kdf);
  }

  /** The format blob of a repository created with these choices. */
  RepositoryFormat format(String id, Instant created) {
    return new RepositoryFormat(
        RepositoryFormat.MAGIC,
        RepositoryFormat.VERSION,
        id,
        created,
        new RepositoryFormat.Chunking(
            "fastcdc-gear", chunker.minSize(), chunker.avgSize(), chunker.maxSize()),
        compressionLevel,
        packSize,
        markWindow,
        sweepWindow,
        retentionMode,
        minimumRetention);
  }

  Repository create(BlobStore store, char[] password) throws IOException {
    if (!store.list("").isEmpty()) {
      throw new RepositoryExistsException(
          store.describe() + " is not empty: init only creates a repository in an empty place");
    }
    SecureRandom random = new SecureRandom();
    byte[] id = new byte[16];
    random.nextBytes(id);
    RepositoryFormat format = format(HexFormat.of().formatHex(id), clock.instant());
    byte[] formatBytes = format.toBytes();
    store.create(RepositoryFormat.BLOB, formatBytes, format.retentionFor(clock.instant()));
    MasterKey key = MasterKey.generate(random);
    byte[] keyBlob =
        KeyBlob.seal(key, Sha256.of(formatBytes), password, kdf, clock.instant(), Hosts.name());
    String keyName = KeyBlob.PREFIX + Sha256.of(keyBlob).hex();
    store.create(keyName, keyBlob, format.retentionFor(clock.instant()));
    return new Repository(store, format, key, keyName, clock);
  }
}
