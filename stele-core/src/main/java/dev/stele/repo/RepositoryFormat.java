package dev.stele.repo;

import dev.stele.blob.Retention;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * The parameters fixed when a repository is created, stored in plain JSON as the blob {@value
 * #BLOB} — the only fixed name in a repository, written once by {@code init}. Its SHA-256 is sealed
 * inside every key blob, so a tampered format blob is detected as soon as a password opens it.
 *
 * @param magic always {@value #MAGIC}
 * @param version format version, {@value #VERSION}
 * @param id random repository id, 32 hex digits
 * @param created when {@code init} ran
 * @param chunker content-defined chunking sizes (the gear table comes from the master key)
 * @param compressionLevel zstd level for chunks and blobs
 * @param packSize target pack size in bytes
 * @param markWindow how old an unreferenced chunk must be before maintenance marks it dead
 * @param sweepWindow how long a mark must stand before maintenance deletes what it marked
 * @param retentionMode the lock mode new blobs get ({@code NONE} for none)
 * @param minimumRetention how long each new blob is retained at least, from its creation
 */
public record RepositoryFormat(
    String magic,
    int version,
    String id,
    Instant created,
    Chunking chunker,
    int compressionLevel,
    int packSize,
    Duration markWindow,
    Duration sweepWindow,
    Retention.Mode retentionMode,
    Duration minimumRetention) {

  public static final String BLOB = "stele.format";
  static final String MAGIC = "stele-repository";
  public static final int VERSION = 1;

  /** Content-defined chunking sizes, in bytes. */
  public record Chunking(String algorithm, int minSize, int avgSize, int maxSize) {}

  public RepositoryFormat {
    if (!MAGIC.equals(magic)) {
      throw new IllegalArgumentException("not a Stele format blob");
    }
  }

  /** The retention a blob created at {@code now} gets. */
  Retention retentionFor(Instant now) {
    return retentionMode == Retention.Mode.NONE
        ? Retention.NONE
        : Retention.of(retentionMode, now.plus(minimumRetention));
  }

  byte[] toBytes() {
    return JsonWriter.object(
        out ->
            out.string("magic", magic)
                .number("version", version)
                .string("id", id)
                .instant("created", created)
                .object(
                    "chunker",
                    chunker == null
                        ? null
                        : c ->
                            c.string("algorithm", chunker.algorithm())
                                .number("minSize", chunker.minSize())
                                .number("avgSize", chunker.avgSize())
                                .number("maxSize", chunker.maxSize()))
                .number("compressionLevel", compressionLevel)
                .number("packSize", packSize)
                .duration("markWindow", markWindow)
                .duration("sweepWindow", sweepWindow)
                .constant("retentionMode", retentionMode)
                .duration("minimumRetention", minimumRetention));
  }

  static RepositoryFormat parse(byte[] bytes) throws IOException {
    RepositoryFormat format;
    try {
      JsonObject json = JsonObject.parse(BLOB, bytes);
      JsonObject chunking = json.object("chunker");
      format =
          new RepositoryFormat(
              json.string("magic"),
              json.integer("version"),
              json.string("id"),
              json.instant("created"),
              chunking == null
                  ? null
                  : new Chunking(
                      chunking.string("algorithm"),
                      chunking.integer("minSize"),
                      chunking.integer("avgSize"),
                      chunking.integer("maxSize")),
              json.integer("compressionLevel"),
              json.integer("packSize"),
              json.duration("markWindow"),
              json.duration("sweepWindow"),
              json.constant("retentionMode", Retention.Mode.class),
              json.duration("minimumRetention"));
    } catch (CorruptBlobException | IllegalArgumentException e) {
      throw new NotARepositoryException(BLOB + " is not a Stele format blob");
    }
    if (format.version() < 1) {
      throw new NotARepositoryException(
          "repository format version " + format.version() + " is invalid (versions start at 1)");
    }
    if (format.version() > VERSION) {
      throw new NotARepositoryException(
          "repository format version " + format.version() + " is newer than this Stele reads");
    }
    return format;
  }
}
