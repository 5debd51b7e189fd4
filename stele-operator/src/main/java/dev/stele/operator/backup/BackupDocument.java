package dev.stele.operator.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.stele.k8s.api.BackupSpec;
import java.io.IOException;
import java.util.List;

/**
 * {@code backup.json}, the record of a finished backup inside its own snapshot. The backup's
 * snapshot tree is:
 *
 * <pre>
 * backup.json                          this document
 * backup.log                           what happened, one line per event
 * resources/&lt;group&gt;/&lt;resource&gt;/&lt;namespace|_cluster&gt;/&lt;name&gt;.json
 * volumes/&lt;namespace&gt;/&lt;pod&gt;/&lt;volume&gt;/   the volume's files
 * </pre>
 *
 * The {@code resources} and {@code volumes} directories are the very trees of the backup's parts
 * (the resources snapshot, one snapshot per pod volume), so the backup's snapshot alone keeps all
 * its data alive and restorable; the parts exist so that nothing the backup waits for is
 * unreferenced in the meantime.
 *
 * @param version 1
 * @param name the Backup's name
 * @param namespace the Backup's namespace
 * @param uid the Backup's uid
 * @param spec the Backup's spec, as a synced Backup recreates it
 * @param phase Completed or PartiallyFailed (a Failed backup has no manifest); null in the
 *     resources part, which never says how the backup goes
 * @param started when the backup started (ISO-8601)
 * @param completed when the manifest was written (ISO-8601)
 * @param expiration when the backup may be deleted (ISO-8601)
 * @param items API objects backed up
 * @param warnings what went wrong without losing data
 * @param errors what could not be backed up
 * @param resourcesSnapshot the id of the resources snapshot
 * @param volumes every pod volume selected, completed or not
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BackupDocument(
    int version,
    String name,
    String namespace,
    String uid,
    BackupSpec spec,
    String phase,
    String started,
    String completed,
    String expiration,
    int items,
    List<String> warnings,
    List<String> errors,
    String resourcesSnapshot,
    List<Volume> volumes)
    implements Documents.Versioned {
  public static final int VERSION = 1;
  public static final String FILE = "backup.json";
  public static final String LOG = "backup.log";
  public static final String RESOURCES = "resources";
  public static final String VOLUMES = "volumes";

  /**
   * One pod volume of the backup.
   *
   * @param namespace the pod's namespace
   * @param pod the pod's name
   * @param volume the volume's name in the pod spec
   * @param phase Completed or Failed
   * @param message why it failed, or null
   * @param snapshotID the volume's snapshot (null if it failed)
   * @param bytes bytes of file data in the volume
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Volume(
      String namespace,
      String pod,
      String volume,
      String phase,
      String message,
      String snapshotID,
      long bytes) {
    /** Where the volume's files are in the backup's snapshot. */
    public String path() {
      return VOLUMES + "/" + namespace + "/" + pod + "/" + volume;
    }
  }

  public BackupDocument {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    errors = errors == null ? List.of() : List.copyOf(errors);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
  }

  public byte[] encode() {
    return Documents.encode(this);
  }

  public static BackupDocument decode(byte[] json) throws IOException {
    return Documents.decode(json, BackupDocument.class, FILE, VERSION);
  }
}
