package dev.stele.repo;

import java.io.IOException;
import java.time.Instant;

/**
 * The blob {@code tombstones/<sha256>} that forgets something without deleting it: a snapshot
 * ({@code snapshots/…}) or a key ({@code keys/…}). Maintenance reclaims the target's data later,
 * once nothing references it and its retention has passed.
 *
 * @param target the name of the forgotten blob
 * @param time when it was forgotten
 * @param reason free text, such as "forget --keep-last 3" or "backup deleted"
 */
public record Tombstone(String target, Instant time, String reason) {
  /** The tombstone's JSON (docs/format.md §9.2). */
  public byte[] toJson() {
    return JsonWriter.object(
        out -> out.string("target", target).instant("time", time).string("reason", reason));
  }

  /**
   * The tombstone {@code json} holds, the blob {@code blob}.
   *
   * @throws CorruptBlobException if it is not a JSON object of the right fields
   */
  public static Tombstone parse(String blob, byte[] json) throws IOException {
    JsonObject t = JsonObject.parse(blob, json);
    return new Tombstone(t.string("target"), t.instant("time"), t.string("reason"));
  }
}
