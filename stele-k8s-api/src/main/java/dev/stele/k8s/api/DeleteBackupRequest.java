package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Asks for a backup to be deleted: the operator writes tombstones for its snapshots (new objects;
 * nothing is rewritten), removes the Backup resource, and says until when the bucket must keep the
 * data. Maintenance reclaims it once retention allows.
 */
@Group(SteleApi.GROUP)
@Version(SteleApi.VERSION)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Backup", jsonPath = ".spec.backupName")
// A string, not a date: kubectl shows a date in the future as <invalid>.
@AdditionalPrinterColumn(name = "Retained Until", jsonPath = ".status.retainedUntil")
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", priority = 1)
public class DeleteBackupRequest
    extends CustomResource<DeleteBackupRequestSpec, DeleteBackupRequestStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;
}
