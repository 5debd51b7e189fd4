package dev.stele.operator.restore;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.operator.backup.Documents;
import java.io.IOException;
import java.util.List;

/**
 * {@code restore.json}, the record of a finished restore in its results snapshot (with {@code
 * restore.log} beside it), written once when the restore ends.
 *
 * @param version 1
 * @param name the Restore's name
 * @param namespace the Restore's namespace
 * @param uid the Restore's uid
 * @param backupName the Backup restored from
 * @param backupSnapshot the backup's snapshot id
 * @param spec the Restore's spec
 * @param phase Completed, PartiallyFailed or Failed
 * @param started when the restore started (ISO-8601)
 * @param completed when it ended (ISO-8601)
 * @param itemsRestored objects created or replaced
 * @param itemsSkipped objects that existed and were left as they were
 * @param warnings what did not go as asked without an object failing
 * @param errors what failed
 * @param objects every selected object, in the order it was restored
 * @param volumes every pod volume the restore asked the node agent to fill
 * @param note what this record lacks, and why (null when complete)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RestoreDocument(
    int version,
    String name,
    String namespace,
    String uid,
    String backupName,
    String backupSnapshot,
    RestoreSpec spec,
    String phase,
    String started,
    String completed,
    int itemsRestored,
    int itemsSkipped,
    List<String> warnings,
    List<String> errors,
    List<Item> objects,
    List<Volume> volumes,
    String note)
    implements Documents.Versioned {
  public static final int VERSION = 1;
  public static final String FILE = "restore.json";
  public static final String LOG = "restore.log";

  /** What happened to an object. */
  public static final String RESTORED = "restored";

  public static final String UPDATED = "updated";
  public static final String SKIPPED = "skipped";
  public static final String FAILED = "failed";

  /**
   * One object of the backup the restore selected.
   *
   * @param resource its type, as filters name it ({@code deployments.apps})
   * @param namespace where it was backed up from (null: cluster-scoped)
   * @param name its name as backed up
   * @param restoredAs {@code namespace/name} or {@code name} where it was restored
   * @param result restored, updated, skipped or failed
   * @param message why it was skipped or failed, or null
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Item(
      String resource,
      String namespace,
      String name,
      String restoredAs,
      String result,
      String message) {}

  /**
   * One pod volume filled by the node agent.
   *
   * @param namespace the restored pod's namespace
   * @param pod the pod's name
   * @param volume the volume's name in the pod's spec
   * @param snapshotID the volume snapshot restored
   * @param podVolumeRestore the request's name, in the Restore's namespace
   * @param phase the request's last phase (Completed or Failed)
   * @param message the request's last message, or null
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Volume(
      String namespace,
      String pod,
      String volume,
      String snapshotID,
      String podVolumeRestore,
      String phase,
      String message) {}

  public RestoreDocument {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    errors = errors == null ? List.of() : List.copyOf(errors);
    objects = objects == null ? List.of() : List.copyOf(objects);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
  }

  public byte[] encode() {
    return Documents.encode(this);
  }

  public static RestoreDocument decode(byte[] json) throws IOException {
    return Documents.decode(json, RestoreDocument.class, FILE, VERSION);
  }
}
