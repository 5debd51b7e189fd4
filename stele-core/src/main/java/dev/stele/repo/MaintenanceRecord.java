package dev.stele.repo;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * What one maintenance run decided and did, written once as {@code maintenance/<sha256>}.
 *
 * <p>Written by each maintenance run ({@link #FULL}), by a writer that failed before indexing its
 * packs ({@link #ABANDONED}), and by {@code stele repair} ({@link #REPAIR}).
 *
 * <p>Marks are promises to delete later: a pack listed in {@code markedPacks} is deleted by a later
 * run once {@code sweepWindow} has passed since {@code time}, if by then it still holds nothing
 * that a live snapshot needs and no copy elsewhere serves it. Index blobs in {@code
 * supersededIndexes} are deleted the same way.
 *
 * @param time when the run started
 * @param kind {@link #FULL}, {@link #ABANDONED} or {@link #REPAIR}
 * @param markedPacks packs that hold no live chunk (or whose live chunks were copied elsewhere);
 *     for a repair, the damaged packs
 * @param supersededIndexes index blobs replaced by this run's compacted index
 * @param deleted blobs deleted by this run
 * @param deferred blobs this run wanted to delete but retention (or the storage) refused
 * @param extended blobs whose retention this run lengthened
 * @param rewrittenPacks packs whose live chunks this run copied into new packs
 * @param heldBack what this run held back from marking and deletion, and why, one line each: all
 *     packs, while a live snapshot's manifest or tree cannot be read (what it reaches is unknown);
 *     or one unindexed pack that may hold a chunk no index names. Empty when nothing was held back;
 *     absent (read as empty) in records written before the field existed.
 */
public record MaintenanceRecord(
    int version,
    Instant time,
    String kind,
    List<String> markedPacks,
    List<String> supersededIndexes,
    List<String> deleted,
    List<String> deferred,
    List<String> extended,
    List<String> rewrittenPacks,
    List<String> heldBack) {
  /**
   * The record version this Stele writes and reads. Maintenance refuses to delete anything in a
   * repository holding a newer record: it may carry rules about deletion this Stele does not know.
   */
  public static final int VERSION = 1;

  /** The kind of record a maintenance run writes. */
  public static final String FULL = "full";

  /**
   * The kind of record a writer that failed before writing its index blob leaves: {@code
   * markedPacks} are the packs it uploaded, which no index blob ever named, so no snapshot and no
   * other writer can depend on them and maintenance may delete them without waiting.
   */
  static final String ABANDONED = "abandoned";

  /** The record of packs a failed writer uploaded and never indexed. */
  static MaintenanceRecord abandoned(Instant time, List<String> packs) {
    return new MaintenanceRecord(
        VERSION, time, ABANDONED, packs, List.of(), List.of(), List.of(), List.of(), List.of(),
        List.of());
  }

  /** True for an {@link #ABANDONED} record. */
  public boolean isAbandoned() {
    return ABANDONED.equals(kind);
  }

  /** The kind of a repair's record, whose {@code markedPacks} are damaged packs. */
  public static final String REPAIR = "repair";

  /** True if this record's marks are packs a repair found damaged. */
  public boolean marksDamage() {
    return REPAIR.equals(kind);
  }

  public MaintenanceRecord {
    markedPacks = List.copyOf(markedPacks);
    supersededIndexes = List.copyOf(supersededIndexes);
    deleted = List.copyOf(deleted);
    deferred = List.copyOf(deferred);
    extended = List.copyOf(extended);
    rewrittenPacks = List.copyOf(rewrittenPacks);
    heldBack = heldBack == null ? List.of() : List.copyOf(heldBack);
  }

  /** The record's JSON (docs/format.md §9.3). */
  public byte[] toJson() {
    return JsonWriter.object(
        out ->
            out.number("version", version)
                .instant("time", time)
                .string("kind", kind)
                .strings("markedPacks", markedPacks)
                .strings("supersededIndexes", supersededIndexes)
                .strings("deleted", deleted)
                .strings("deferred", deferred)
                .strings("extended", extended)
                .strings("rewrittenPacks", rewrittenPacks)
                .strings("heldBack", heldBack));
  }

  /**
   * The record {@code json} holds, the blob {@code blob}.
   *
   * @throws CorruptBlobException if it is not a maintenance record
   * @throws UnsupportedVersionException if a newer Stele wrote it
   */
  public static MaintenanceRecord parse(String blob, byte[] json) throws IOException {
    JsonObject r = JsonObject.versioned(blob, json, VERSION);
    return new MaintenanceRecord(
        r.integer("version"),
        r.instant("time"),
        r.string("kind"),
        r.strings("markedPacks"),
        r.strings("supersededIndexes"),
        r.strings("deleted"),
        r.strings("deferred"),
        r.strings("extended"),
        r.strings("rewrittenPacks"),
        r.strings("heldBack"));
  }
}
